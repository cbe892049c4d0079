/**
 * Message normalization for the read model: a span's or log record's messages in one form,
 * whatever the convention and provider format (see `message-types.ts`).
 * @module
 */

export { inlineFileBytes } from './inline-file-bytes.js';
export type {
  MessageFile,
  MessagePart,
  NormalizedMessage,
  NormalizedMessages,
  PlacedFile,
  RemoteReference,
  ValueLocation,
} from './message-types.js';
export { normalizeLogMessages } from './normalize-log-messages.js';
export { normalizeSpanMessages } from './normalize-span-messages.js';
