/**
 * `normalizeSpanMessages`: a span's messages in the normalized form, across every convention the
 * SDK records or reads.
 * @module
 */

import type { ListedFile } from '../../media/listed-files.js';
import type { KeyValue } from '../../otlp/model.js';
import { BlobIndex } from './files/blob-index.js';
import type { NormalizedMessages } from './message-types.js';
import { PartsReader } from './parts/parts-reader.js';
import { RecordValues } from './record-values.js';
import { selectMessages } from './select-sources.js';

/**
 * The messages a span's attributes record, normalized (see `message-types.ts`): per direction the
 * one source read as the conversation, each part with its location; files in digest form matched
 * to `listed` (the span's own `svc.blobs` entries and `svc.file` events, see `listedFiles`) for
 * their type and name, files still inline with their digest computed here. Never throws; values
 * that do not parse are text.
 *
 * @example
 * ```ts
 * const { messages, belowMessages, readAttributes } = normalizeSpanMessages(span.attributes, files);
 * ```
 */
export function normalizeSpanMessages(
  attributes: readonly KeyValue[],
  listed: readonly ListedFile[],
): NormalizedMessages {
  return selectMessages(new RecordValues(attributes), new PartsReader(new BlobIndex(listed)));
}
