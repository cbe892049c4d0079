/**
 * `@svc-run/server`: the reference implementation of the service.
 * @module
 */
export { type AppOptions, createApp, type SvcApp } from './app.js';
export type { KeyPreset, RouteAccess } from './auth/key-presets.js';
export { KEY_PREFIXES, KEY_PRESETS } from './auth/key-presets.js';
export { API_ERROR_CODES, type ApiErrorCode } from './error-codes.js';
export type { EvalErrorCode } from './evals/core/eval-error-codes.js';
export type { JudgeModelOption, JudgeModelReference } from './evals/judge/judge-worker.js';
export type { ResolvedAddress, TargetLookup } from './evals/managed/target-address-policy.js';
export { type Fault, FaultInjector } from './faults/fault-injector.js';
export type { ApiErrorBody } from './http/api-error.js';
export { BodyBudget, DEFAULT_BODY_BUDGET_BYTES } from './http/body-budget.js';
export {
  CLIENT_CLOSED_REQUEST,
  formatRequestLogLine,
  type RequestLogEntry,
  type RequestLogSink,
} from './http/request-log.js';
export type {
  FileListing,
  FileRecords,
  HeldFile,
  ListingScope,
  Reservation,
} from './ingest/file-records.js';
export type { TraceStore, TraceSummary } from './ingest/trace-store.js';
export {
  DEFAULT_DOWNLOAD_LINK_TTL_MILLIS,
  DEFAULT_UPLOAD_LINK_TTL_MILLIS,
  MAX_BLOB_ENTRIES_READ,
  MAX_EXPECTED_SPAN_IDS,
  MAX_FILE_BYTES,
  MAX_OTLP_BODY_BYTES,
  MAX_RECEIPT_BYTES,
} from './limits.js';
export { BlobBodyError, type BlobBodyProblem } from './media/blob-body-error.js';
export type { BlobStore, ExpectedBlob, StoredBlob } from './media/blob-store.js';
export { LINK_SECRET_FILE } from './media/link-secret.js';
export { type FileRole, type ListedFile, validFileName } from './media/listed-files.js';
export { BLOBS_DIRECTORY, LocalBlobStore } from './media/local-blob-store.js';
export type { MediaErrorCode } from './media/media-error-codes.js';
export { type FileState, type Holding, type SpanFileState, TraceFiles } from './media/trace-files.js';
export type { Project, ProjectKeys } from './project/project.js';
export { FIELD_CONVENTIONS, RECEIPT_FIELDS, type ReceiptField } from './receipt/field-conventions.js';
export { ROUTE_ACCESS, type RouteId } from './route-table.js';
export type { TraceReceipt } from './routes/receipt-route.js';
export { DATABASE_FILE, type RunningServer, type StartServerOptions, startServer } from './start-server.js';
export {
  DataDirectoryLockedError,
  LOCK_FILE,
  LOCK_HOLDER_FILE,
  type LockHolder,
} from './store/data-dir-lock.js';
