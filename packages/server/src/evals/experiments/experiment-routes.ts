/**
 * Routes of experiments, executions and trace snapshots.
 * @module
 */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { GuardedEnv } from '../../auth/route-guard.js';
import { idParam } from '../core/common-schemas.js';
import type { EvalContext } from '../core/eval-context.js';
import { registerEvalRoute } from '../core/eval-route.js';
import { registerGetRoute, registerPageRoute } from '../core/read-routes.js';
import {
  CompleteExecutionSchema,
  CompletionSchema,
  CreatedExperimentSchema,
  CreateExperimentSchema,
  ExecutionSchema,
  ExperimentCaseSchema,
  ExperimentItemPageSchema,
  ExperimentSchema,
  FinishExperimentSchema,
  FinishedExperimentSchema,
  StartExecutionSchema,
  TraceSnapshotSchema,
} from './experiment-schemas.js';
import type { ExperimentStore } from './experiment-store.js';
import type { TraceSnapshots } from './trace-snapshots.js';

const ExperimentParams = z.object({ experimentId: idParam('experimentId') });
const CaseParams = z.object({ experimentId: idParam('experimentId'), caseId: idParam('caseId') });
const ExecutionParams = z.object({ executionId: idParam('executionId') });

/** Reads the results of a case's executions (given by the results part of the registry). */
export type CaseResults = (executionIds: readonly string[]) => unknown[];

/** Registers the experiment routes. */
export function registerExperimentRoutes(
  app: OpenAPIHono<GuardedEnv>,
  context: EvalContext,
  stores: { experiments: ExperimentStore; snapshots: TraceSnapshots; caseResults: CaseResults },
): void {
  const { experiments, snapshots } = stores;
  registerEvalRoute(app, context, {
    id: 'evals.experiments.create',
    summary: 'Creates an experiment on a frozen dataset version, with its evaluation run',
    body: CreateExperimentSchema,
    response: CreatedExperimentSchema,
    errors: {
      404: 'No such dataset version or scorer version',
      409: 'The dataset version is not frozen (conflict)',
    },
    handle: ({ body }) => experiments.create(body),
  });
  registerGetRoute(app, context, {
    id: 'evals.experiments.get',
    summary: 'Reads an experiment',
    params: ExperimentParams,
    response: ExperimentSchema,
    missing: 'No such experiment',
    handle: (params) => experiments.get(params.experimentId),
  });
  registerPageRoute(app, context, {
    id: 'evals.experiments.items',
    summary: "Lists the experiment's items: the cases of its dataset version, each with its latest execution",
    params: ExperimentParams,
    response: ExperimentItemPageSchema,
    missing: 'No such experiment',
    handle: (params, page) => experiments.listItems(params.experimentId, page),
  });
  registerEvalRoute(app, context, {
    id: 'evals.experiments.case',
    summary: 'The case view: a case of the experiment, every execution of it and their results',
    params: CaseParams,
    response: ExperimentCaseSchema,
    errors: {
      400: 'An ID is not a UUID',
      404: 'No such experiment, or the case is not in its dataset version',
    },
    handle: ({ params }) => {
      const view = experiments.caseView(params.experimentId, params.caseId);
      return { ...view, results: stores.caseResults(view.executions.map((execution) => execution.id)) };
    },
  });
  registerEvalRoute(app, context, {
    id: 'evals.executions.start',
    summary: 'Starts an attempt at a case of the experiment',
    description:
      'A case with an execution needs previousExecutionId (its latest execution, which the new attempt replaces). ' +
      'An execution still started may have completed: it is replaced only with allowUncertainRetry: true.',
    params: CaseParams,
    body: StartExecutionSchema,
    response: ExecutionSchema,
    errors: {
      404: 'No such experiment, or the case is not in its dataset version',
      409: 'The experiment is finished, or the case has an execution and the request does not replace it as required (conflict)',
    },
    handle: ({ params, body }) => experiments.start(params.experimentId, params.caseId, body),
  });
  registerGetRoute(app, context, {
    id: 'evals.executions.get',
    summary: 'Reads an execution',
    params: ExecutionParams,
    response: ExecutionSchema,
    missing: 'No such execution',
    handle: (params) => experiments.getExecution(params.executionId),
  });
  registerEvalRoute(app, context, {
    id: 'evals.executions.complete',
    summary: 'Completes an execution in a terminal state (succeeded, error, cancelled)',
    description:
      'Saves the subject and puts it in the experiment run (evaluationItemId). With traceEvidence: required, the ' +
      "execution's trace (traceExternalId) must be stored, at expectedTraceRevision or later when given; its spans " +
      'and logs are copied into a snapshot (traceSnapshotId). traceEvidence: omit needs omissionReason.',
    params: ExecutionParams,
    body: CompleteExecutionSchema,
    response: CompletionSchema,
    errors: {
      404: 'No such execution',
      409: 'The execution is completed or replaced, the experiment is finished, or the trace is not stored (yet) (conflict)',
    },
    handle: ({ params, body }) => experiments.complete(params.executionId, body),
  });
  registerEvalRoute(app, context, {
    id: 'evals.experiments.finish',
    summary: 'Finishes an experiment: it accepts no more executions or completions',
    params: ExperimentParams,
    body: FinishExperimentSchema,
    response: FinishedExperimentSchema,
    errors: { 404: 'No such experiment', 409: 'The experiment is finished already (conflict)' },
    handle: ({ params }) => experiments.finish(params.experimentId),
  });
  registerGetRoute(app, context, {
    id: 'evals.traceSnapshots.get',
    summary: "Reads a trace snapshot: the trace's stored spans and logs as of an execution's completion",
    description: 'Snapshots are copies of recorded content: a Read-and-write key reads them.',
    params: z.object({ snapshotId: idParam('snapshotId') }),
    response: TraceSnapshotSchema,
    missing: 'No such snapshot',
    handle: (params) => snapshots.get(params.snapshotId),
  });
}
