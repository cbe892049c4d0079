/**
 * The spec's rule for file names in `svc.blobs` entries and digest-form parts: nonblank after
 * trimming, at most 256 UTF-16 code units, well-formed Unicode, and no U+0000–U+001F or U+007F.
 * @module
 */

import { isWellFormedText } from './digest/utf8-text.js';

/** The longest valid file name, in UTF-16 code units. */
export const MAX_FILE_NAME_UNITS = 256;

/** `name` when it is a valid file name (returned as given, not trimmed), otherwise `undefined`. */
export function validFileName(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.length === 0 || name.length > MAX_FILE_NAME_UNITS) return undefined;
  if (name.trim() === '') return undefined;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c <= 0x1f || c === 0x7f) return undefined;
  }
  return isWellFormedText(name) ? name : undefined;
}
