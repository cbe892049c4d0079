/**
 * Routes of managed targets: register a target, dispatch a case to it, read a dispatch; and the
 * machine-credential routes its handler calls — claim, output files, outcome.
 * @module
 */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { GuardedEnv } from '../../auth/route-guard.js';
import { idParam } from '../core/common-schemas.js';
import type { EvalContext } from '../core/eval-context.js';
import { registerEvalRoute } from '../core/eval-route.js';
import { registerGetRoute } from '../core/read-routes.js';
import { CreatedArtifactSchema } from '../files/case-file-schemas.js';
import type { CaseFiles } from '../files/case-files.js';
import type { ManagedDeliveries } from './managed-deliveries.js';
import {
  ClaimAnswerSchema,
  ClaimSchema,
  CreateManagedTargetSchema,
  DispatchedSchema,
  DispatchRecordSchema,
  DispatchSchema,
  ManagedExecutionSchema,
  ManagedTargetSchema,
  OutcomeAnswerSchema,
  OutcomeSchema,
  OutputFileDeclarationSchema,
} from './managed-schemas.js';
import type { ManagedStore } from './managed-store.js';
import type { TargetAddressPolicy } from './target-address-policy.js';

const ExecutionParams = z.object({ executionId: idParam('executionId') });

/** Registers the managed-target routes. */
export function registerManagedRoutes(
  app: OpenAPIHono<GuardedEnv>,
  context: EvalContext,
  stores: {
    managed: ManagedStore;
    deliveries: ManagedDeliveries;
    caseFiles: CaseFiles;
    targetAddresses: TargetAddressPolicy;
  },
): void {
  const { managed, deliveries, caseFiles, targetAddresses } = stores;
  registerEvalRoute(app, context, {
    id: 'evals.managedTargets.create',
    summary: "Registers a managed target: the application's endpoint that runs one case per request",
    description:
      'The service POSTs each dispatched execution to url as JSON { type: "svc.managed.execution", deliveryId, ' +
      'executionId, experimentId, caseId }, signed with the machine credential in the Svc-Signature header ' +
      '(t=<ms>,v1=<base64url HMAC-SHA256 of "<t>.<body>" under HMAC-SHA256(machine credential, "svc-run managed request v1")>). ' +
      'The URL must be public: a host that is or resolves to a non-public address is refused here and again at ' +
      'every connection, unless the server allows private targets. Redirects are not followed.',
    body: CreateManagedTargetSchema,
    response: ManagedTargetSchema,
    errors: {
      422: 'The URL host is or resolves to a loopback, private, link-local or other non-public address (refused unless the server allows private targets), naming the address class (invalid_request); or the answer would be over 4 MiB (response_too_large)',
    },
    prepare: ({ body }) => targetAddresses.checkRegistration(body.url),
    handle: ({ body }) => managed.createTarget(body),
  });
  registerGetRoute(app, context, {
    id: 'evals.managedTargets.get',
    summary: 'Reads a managed target',
    params: z.object({ targetId: idParam('targetId') }),
    response: ManagedTargetSchema,
    missing: 'No such target',
    handle: (params) => managed.getTarget(params.targetId),
  });
  registerEvalRoute(app, context, {
    id: 'evals.executions.dispatch',
    summary: 'Starts an execution of a case and delivers it to a managed target',
    description:
      'Starts the execution as the start route does (previousExecutionId, allowUncertainRetry), answers at once ' +
      'with the dispatch (state delivering), then POSTs the signed request to the target in the background. ' +
      "The dispatch records the answer (delivered, with the status and the managed handler's fields of the JSON " +
      'answer) or the failure (unreachable, a non-public address, a redirect, no answer in time).',
    params: z.object({ experimentId: idParam('experimentId'), caseId: idParam('caseId') }),
    body: DispatchSchema,
    response: DispatchedSchema,
    errors: {
      404: 'No such experiment or target, or the case is not in its dataset version',
      409: 'The experiment is finished, or the case has an execution and the request does not replace it as required (conflict)',
    },
    handle: ({ params, body, afterCommit }) => {
      const dispatched = managed.dispatch(params.experimentId, params.caseId, body);
      afterCommit(() => deliveries.deliver(dispatched.dispatch.id));
      return dispatched;
    },
  });
  registerGetRoute(app, context, {
    id: 'evals.dispatches.get',
    summary: 'Reads a dispatch: delivering, delivered (with the target’s status and answer) or failed',
    params: z.object({ dispatchId: idParam('dispatchId') }),
    response: DispatchRecordSchema,
    missing: 'No such dispatch',
    handle: (params) => managed.getDispatch(params.dispatchId),
  });
  registerEvalRoute(app, context, {
    id: 'evals.executions.claim',
    summary: 'Claims a dispatched execution before running it (machine credential)',
    description:
      'Atomic: the first claim wins, every later one (another idempotency key) is 409 already_claimed, so a ' +
      'replayed request never runs the agent again. Answers with the inputs, the experiment configuration and ' +
      'signed download links of the case files the agent sees. A lost answer is retried with the same key.',
    params: ExecutionParams,
    body: ClaimSchema,
    response: ClaimAnswerSchema,
    errors: {
      404: 'No such execution',
      409: 'Claimed already (already_claimed); or completed, replaced, its experiment finished, or not dispatched (conflict)',
    },
    handle: ({ params, body, origin }) => managed.claim(params.executionId, body, origin),
  });
  registerEvalRoute(app, context, {
    id: 'evals.executions.outputFiles',
    summary: 'Declares an output file of a claimed execution (machine credential)',
    description:
      'Like artifact creation: unless the service holds the bytes, the answer has a signed upload link (PUT the ' +
      'bytes with exactly its headers, no Authorization). Name the artifact in the outcome’s files.',
    params: ExecutionParams,
    body: OutputFileDeclarationSchema,
    response: CreatedArtifactSchema,
    errors: {
      404: 'No such execution',
      409: 'Not claimed, another claim, or the outcome is saved already (conflict)',
      503: 'File storage cannot be read',
    },
    prepare: ({ body }) => caseFiles.holds(body.sha256, body.size),
    handle: ({ params, body, prepared, origin }) =>
      managed.declareOutputFile(params.executionId, body, prepared, origin),
  });
  registerEvalRoute(app, context, {
    id: 'evals.executions.outcome',
    summary: 'Saves the outcome of a claimed execution (machine credential)',
    description:
      'Completes the execution in its terminal state (succeeded, error with { type, message? }, cancelled) with ' +
      'its output, and keeps its output files (stored artifacts) and usage. Saved once; a lost answer is ' +
      'retried with the same idempotency key.',
    params: ExecutionParams,
    body: OutcomeSchema,
    response: OutcomeAnswerSchema,
    errors: {
      404: 'No such execution or artifact',
      409: 'Not claimed, another claim, saved already, an artifact not uploaded, or the execution replaced or its experiment finished (conflict)',
    },
    handle: ({ params, body }) => managed.saveOutcome(params.executionId, body),
  });
  registerGetRoute(app, context, {
    id: 'evals.executions.managed',
    summary: 'Reads the managed side of an execution: dispatch, claim, usage and output files',
    params: ExecutionParams,
    response: ManagedExecutionSchema,
    missing: 'No such execution, or it was not dispatched',
    handle: (params) => managed.managedExecution(params.executionId),
  });
}
