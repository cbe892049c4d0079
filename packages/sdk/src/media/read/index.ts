/**
 * Reading recorded files back: `createMediaReader` (`svc.media.fetch`, `svc.media.resolve`) and
 * `rehydrateMedia`.
 * @module
 */
export type { BlobEntryInput } from './blob-entries.js';
export {
  DEFAULT_MAX_FILE_BYTES,
  type MediaFetchFile,
  type MediaFetchOptions,
  type MediaFileSource,
  type MediaReadLimits,
  type SnapshotFileSource,
  type TraceFileSource,
} from './fetch-options.js';
export { createMediaReader, type MediaReader, type MediaReaderOptions } from './media-reader.js';
export { type RehydrateFile, rehydrateMedia } from './rehydrate-media.js';
export type {
  MediaResolveFailure,
  MediaResolveFailureReason,
  MediaResolveOptions,
  MediaResolveResult,
  MediaResolveSettings,
} from './resolve-options.js';
