/**
 * `@svc-run/sdk`: tracing, media and evaluation SDK for LLM applications.
 *
 * @example
 * ```ts
 * import { createSvc } from '@svc-run/sdk';
 *
 * const svc = createSvc({
 *   apiKey: process.env.SVC_API_KEY!,
 *   serviceName: 'chat-api',
 *   captureContent: true,
 * });
 * const answer = await svc.withSpan('chat-turn', async (span) => {
 *   const text = await reply(question);
 *   span.setOutput(text);
 *   return text;
 * }, { input: { question }, sessionId, userId });
 * await svc.flush();
 * ```
 * @module
 */

export {
  createSvcSafe,
  SafeSvc,
  type SafeTransport,
  type SvcSafeOptions,
} from './client/create-svc-safe.js';
export type {
  ModelCallHandle,
  ModelCallOptions,
  ModelResponse,
  ModelUsage,
} from './client/model-call.js';
export type { SpanHandle, WithSpanOptions } from './client/span-options.js';
export {
  createSvc,
  type ExistingProviders,
  type McpClientLike,
  SvcClient,
} from './client/svc-client.js';
export type { ProjectConnection } from './connection/project-connection.js';
export {
  MediaFetchError,
  type MediaFetchErrorOptions,
  type MediaFetchErrorReason,
} from './errors/media-fetch-error.js';
export {
  OutcomeSerializationError,
  type OutcomeSerializationErrorOptions,
} from './errors/outcome-serialization-error.js';
export { SvcApiError, type SvcApiErrorOptions, type SvcApiProblem } from './errors/svc-api-error.js';
export { SvcConnectionError, type SvcConnectionErrorOptions } from './errors/svc-connection-error.js';
export { SvcError, type SvcErrorOptions } from './errors/svc-error.js';
export { SvcExportError, type SvcExportErrorOptions } from './errors/svc-export-error.js';
export {
  SvcTraceVerificationError,
  type SvcTraceVerificationErrorOptions,
  type TraceVerificationErrorCode,
} from './errors/svc-trace-verification-error.js';
export {
  UncertainExecutionError,
  type UncertainExecutionErrorOptions,
} from './errors/uncertain-execution-error.js';
export {
  SUPPORTED_RUNTIMES,
  UnsupportedRuntimeError,
  type UnsupportedRuntimeErrorOptions,
} from './errors/unsupported-runtime-error.js';
export { type ExportReport, emptyExportReport } from './export/export-report.js';
export { createSvcTransport, type SvcTransport } from './export/svc-transport.js';
export { Attachment, type AttachmentOptions } from './media/attachment/attachment.js';
export type { FileInput } from './media/attachment/read-file-input.js';
export type { FileRole, RecordFileOptions } from './media/attachment/recorded-file.js';
export type { BlobEntry, DigestPart, Modality } from './media/media-types.js';
export {
  type BlobEntryInput,
  createMediaReader,
  DEFAULT_MAX_FILE_BYTES,
  type MediaFetchOptions,
  type MediaFileSource,
  type MediaReader,
  type MediaReaderOptions,
  type MediaResolveFailure,
  type MediaResolveFailureReason,
  type MediaResolveOptions,
  type MediaResolveResult,
  type RehydrateFile,
  rehydrateMedia,
  type SnapshotFileSource,
  type TraceFileSource,
} from './media/read/index.js';
export {
  DEFAULT_BASE_URL,
  DEFAULT_TIMEOUT_MILLIS,
  type ExportIssue,
  type Redactor,
  type SvcOptions,
} from './options/svc-options.js';
export type { TraceReceipt, TraceVerification } from './verify/trace-receipt.js';
export type { VerifyTraceOptions } from './verify/verify-options.js';
