/**
 * SHA-256 and size of a {@link FileSource} held in memory, computed the way the uploader reads
 * it: base64 sources slice by slice from their text, text sources as UTF-8.
 * @module
 */

import { createHash } from 'node:crypto';
import type { FileSource } from '../../media-types.js';
import { digestBase64 } from './base64-digest.js';
import { digestUtf8 } from './utf8-text.js';

/**
 * The SHA-256 (hex) and size of `source`'s bytes, or `undefined` for a `path` source (read from
 * disk by its owner) or base64 text that does not decode.
 */
export function digestSource(source: FileSource): { sha256: string; size: number } | undefined {
  switch (source.kind) {
    case 'bytes':
      return { sha256: createHash('sha256').update(source.bytes).digest('hex'), size: source.bytes.length };
    case 'utf8':
      return digestUtf8(source.text);
    case 'base64': {
      const digest = digestBase64(source.text, source.start, source.end);
      return digest === undefined ? undefined : { sha256: digest.sha256, size: digest.size };
    }
    default:
      return undefined;
  }
}
