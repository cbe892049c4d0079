/**
 * Routes of evaluation runs, items, subjects and results.
 * @module
 */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { GuardedEnv } from '../../auth/route-guard.js';
import { ApiError } from '../../http/api-error.js';
import { idParam } from '../core/common-schemas.js';
import type { EvalContext } from '../core/eval-context.js';
import { registerEvalRoute } from '../core/eval-route.js';
import { registerGetRoute, registerPageRoute } from '../core/read-routes.js';
import type { ScorerStore } from '../scorers/scorer-store.js';
import type { ResultStore } from './result-store.js';
import {
  CreatedRunSchema,
  CreateRunSchema,
  ItemPageSchema,
  ResultPageSchema,
  ResultSchema,
  RunSchema,
  SubjectSchema,
  SubmitResultsSchema,
  SubmittedResultsSchema,
} from './run-schemas.js';
import type { RunStore } from './run-store.js';

const RunParams = z.object({ runId: idParam('runId') });

/** Registers the run routes. */
export function registerRunRoutes(
  app: OpenAPIHono<GuardedEnv>,
  context: EvalContext,
  stores: { runs: RunStore; results: ResultStore; scorers: ScorerStore },
): void {
  const { runs, results, scorers } = stores;
  registerEvalRoute(app, context, {
    id: 'evals.runs.create',
    summary: 'Creates an evaluation run over saved subjects, with an item per subject',
    body: CreateRunSchema,
    response: CreatedRunSchema,
    errors: { 404: 'A subject or scorer version does not exist' },
    handle: ({ body }) => {
      for (const [index, id] of body.subjectIds.entries()) {
        if (!runs.hasSubject(id))
          throw new ApiError(404, 'not_found', `subjectIds[${index}]: no subject has this ID.`);
      }
      for (const [index, id] of body.scorerVersionIds.entries())
        scorers.getVersion(id, `scorerVersionIds[${index}]`);
      const id = runs.createRun(body.name, null, body.scorerVersionIds);
      for (const subjectId of body.subjectIds) runs.addItem(id, subjectId);
      return { id };
    },
  });
  registerGetRoute(app, context, {
    id: 'evals.runs.get',
    summary: 'Reads an evaluation run',
    params: RunParams,
    response: RunSchema,
    missing: 'No such run',
    handle: (params) => runs.getRun(params.runId),
  });
  registerPageRoute(app, context, {
    id: 'evals.runs.items',
    summary: 'Lists the items of a run, in the order they were added',
    params: RunParams,
    response: ItemPageSchema,
    missing: 'No such run',
    handle: (params, page) => runs.listItems(params.runId, page),
  });
  registerGetRoute(app, context, {
    id: 'evals.subjects.get',
    summary: 'Reads a subject: what a completed execution produced, with its case',
    params: z.object({ subjectId: idParam('subjectId') }),
    response: SubjectSchema,
    missing: 'No such subject',
    handle: (params) => runs.getSubject(params.subjectId),
  });
  registerEvalRoute(app, context, {
    id: 'evals.results.submit',
    summary: 'Submits results (Scores) of scorer versions on items of the run, all or nothing',
    description:
      'scored: metrics matching the pinned metric definitions exactly (each metric once, values of the declared ' +
      'type, numbers within min/max, categories among the declared ones), and a nonempty explanation or an ' +
      'evidence value; error: error { type, message? }; skipped: a nonempty explanation. local_code results need ' +
      "the version's sourceDigest. At most one result per item and scorer version; hosted judge results come from judge jobs.",
    params: RunParams,
    body: SubmitResultsSchema,
    response: SubmittedResultsSchema,
    errors: {
      400: 'A result breaks the Score rules, its metrics do not match the pinned definitions, or its scorer version is not pinned by the run',
      404: 'No such run, or an item is not of the run',
      409: 'A result exists for the item and scorer version, the sourceDigest differs, or the scorer version is a hosted judge (conflict)',
    },
    handle: ({ params, body }) => results.submit(params.runId, body),
  });
  registerPageRoute(app, context, {
    id: 'evals.results.list',
    summary: 'Lists the results of a run, in submission order',
    params: RunParams,
    response: ResultPageSchema,
    missing: 'No such run',
    handle: (params, page) => results.list(params.runId, page),
  });
  registerGetRoute(app, context, {
    id: 'evals.results.get',
    summary: 'Reads a result',
    params: z.object({ resultId: idParam('resultId') }),
    response: ResultSchema,
    missing: 'No such result',
    handle: (params) => results.get(params.resultId),
  });
}
