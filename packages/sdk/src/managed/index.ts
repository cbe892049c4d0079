/**
 * `@svc-run/sdk/managed`: the managed target adapter. A managed target is the application's own
 * HTTP endpoint that the service calls to run one case of an experiment; the handler verifies the
 * service's signature, claims the execution, runs the target once and saves its outcome.
 *
 * @example
 * ```ts
 * import { createManagedTargetHandler } from '@svc-run/sdk/managed';
 *
 * export const POST = createManagedTargetHandler({
 *   machineCredential: process.env.SVC_MACHINE_KEY!,
 *   flushTelemetry: () => svc.flush(),
 *   target: async ({ inputs }) => ({ output: await answer(inputs) }),
 * });
 * ```
 * @module
 */

export { SvcApiError, type SvcApiErrorOptions } from '../errors/svc-api-error.js';
export { SvcError, type SvcErrorOptions } from '../errors/svc-error.js';
export {
  UnsupportedRuntimeError,
  type UnsupportedRuntimeErrorOptions,
} from '../errors/unsupported-runtime-error.js';
export { MANAGED_CASE_SPAN_NAME } from './case-span.js';
export { createManagedTargetHandler } from './create-managed-target-handler.js';
export { INPUT_FILE_DOWNLOAD_ERROR, INPUT_FILE_VERIFICATION_ERROR } from './input-files.js';
export {
  MAX_EXECUTION_MILLIS,
  MAX_FINALIZATION_MILLIS,
  type ManagedTargetHandlerOptions,
  MIN_BUDGET_MILLIS,
} from './managed-handler-options.js';
export type { ManagedErrorCode } from './managed-responses.js';
export { SIGNATURE_HEADER, SIGNATURE_TOLERANCE_MILLIS } from './managed-signature.js';
export type {
  ManagedErrorInfo,
  ManagedExecutionIdentity,
  ManagedHandlerSummary,
  ManagedInputFile,
  ManagedOutcomeState,
  ManagedOutputFile,
  ManagedTarget,
  ManagedTargetInput,
  ManagedTargetResult,
  ManagedUsage,
} from './managed-types.js';
export { OUTPUT_FILE_UPLOAD_ERROR } from './output-files.js';
export { EXECUTION_TIMEOUT_ERROR, INVALID_RESULT_ERROR } from './target-result.js';
