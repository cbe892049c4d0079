/**
 * `createManagedTargetHandler`: the fetch handler of a managed target.
 * @module
 */

import { reportFailure } from '../diagnostics/report-failure.js';
import { requireSupportedRuntime } from '../runtime/supported-runtime.js';
import { handleExecution } from './handle-execution.js';
import {
  type ManagedTargetHandlerOptions,
  validateManagedHandlerOptions,
} from './managed-handler-options.js';
import { errorResponse } from './managed-responses.js';
import { ManagedService } from './managed-service.js';
import { managedSigningKey } from './managed-signature.js';
import { readManagedRequest } from './read-managed-request.js';
import { type StartDeadline, timerDeadline } from './run-target.js';

/**
 * Creates the fetch handler of a managed target: the application's own HTTP endpoint that the
 * service calls to run one case of an experiment. Mount it on any fetch-style server (Hono,
 * Next.js route handlers, Bun.serve, node:http through `@hono/node-server`).
 *
 * Each request: the service's signature is checked (401 otherwise, nothing run); the execution is
 * claimed with the service (409 when it was claimed already: the agent never runs twice); its
 * input files are downloaded and verified (SHA-256 and size); the target runs once, with an abort
 * signal at `maxExecutionMillis`; its outcome (output, output files, usage; `error` when it threw,
 * `cancelled` when it ran out of time, `error` / `OutcomeSerializationError` for an output that is
 * not JSON) is saved with the service before the answer; then `flushTelemetry` is called. All of
 * the finalization runs within `finalizationMillis`.
 *
 * @throws TypeError for invalid options, naming the option and the rule.
 * @throws UnsupportedRuntimeError on a runtime the SDK does not support (Node.js 20, for example).
 *
 * @example
 * ```ts
 * import { createSvc } from '@svc-run/sdk';
 * import { createManagedTargetHandler } from '@svc-run/sdk/managed';
 *
 * const svc = createSvc({ apiKey: process.env.SVC_API_KEY!, serviceName: 'agent', captureContent: true });
 * const handler = createManagedTargetHandler({
 *   machineCredential: process.env.SVC_MACHINE_KEY!,
 *   tracer: svc.tracer,
 *   flushTelemetry: () => svc.flush(),
 *   target: async ({ inputs, files, signal }) => ({ output: await runMyAgent(inputs, files, signal) }),
 * });
 * // Next.js: export const POST = handler;  Hono: app.post('/svc/managed', (c) => handler(c.req.raw));
 * ```
 */
export function createManagedTargetHandler(
  options: ManagedTargetHandlerOptions,
): (request: Request) => Promise<Response> {
  return createManagedTargetHandlerWith(options, timerDeadline);
}

/**
 * {@link createManagedTargetHandler} whose targets' deadlines `startDeadline` starts. Not part of
 * the package's API: tests use it to run an execution out of time themselves.
 */
export function createManagedTargetHandlerWith(
  options: ManagedTargetHandlerOptions,
  startDeadline: StartDeadline,
): (request: Request) => Promise<Response> {
  requireSupportedRuntime();
  const resolved = validateManagedHandlerOptions(options);
  const signingKey = managedSigningKey(resolved.machineCredential);
  const service = new ManagedService(resolved.machineCredential, resolved.baseUrl);
  return async (request: Request): Promise<Response> => {
    try {
      const checked = await readManagedRequest(request, signingKey);
      if (checked instanceof Response) return checked;
      return await handleExecution(resolved, service, checked, startDeadline);
    } catch (error) {
      // Every expected failure has its own answer: this is a defect, told on diag.
      reportFailure('error', 'the managed handler failed unexpectedly', error);
      return errorResponse(
        500,
        'internal',
        'The managed handler failed unexpectedly; if the execution was claimed, it is not run again.',
      );
    }
  };
}
