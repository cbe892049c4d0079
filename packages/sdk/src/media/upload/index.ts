/**
 * Uploads of files found in recorded values, attached, or recorded on spans. Internal to the SDK.
 * @module
 */
export { heldBytes, UploadBudget } from './upload-budget.js';
export type { UploadJob, UploadOrigin, UploadRefusal, UploadSink } from './upload-job.js';
export { isRetryableUploadStatus, UPLOAD_ATTEMPTS, uploadRetryDelayMillis } from './upload-retry.js';
export { UploadSourceError } from './upload-source-error.js';
export {
  UPLOAD_CONCURRENCY,
  type UploadBatch,
  Uploader,
  type UploaderOptions,
  uploadDeadlineMillis,
} from './uploader.js';
