/**
 * Files an application hands to the SDK: `Attachment` (placed in recorded values, recorded in
 * digest form) and recorded files (the `svc.file` span event).
 * @module
 */
export {
  Attachment,
  type AttachmentOptions,
  attachmentFile,
  attachmentSerializations,
} from './attachment.js';
export { normalizeMediaType } from './media-type.js';
export type { FileInput } from './read-file-input.js';
export {
  FILE_EVENT,
  FILE_ROLES,
  type FileRole,
  fileEventKey,
  type RecordedFile,
  type RecordFileOptions,
  recordedFile,
} from './recorded-file.js';
