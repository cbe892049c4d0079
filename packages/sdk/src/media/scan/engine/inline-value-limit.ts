/**
 * The 1 MiB inline-value rule (spec "Limits": inline value): a scanned attribute value still
 * longer than 1 MiB of UTF-8 after its media are replaced is offered as one file keyed
 * `<attribute>#` (`application/json` when the value is JSON, else `text/plain`); when it uploads
 * (or takes digest form), the value keeps its UTF-8-safe 16 KiB prefix.
 * @module
 */

import { INLINE_PREFIX_BYTES, INLINE_VALUE_LIMIT, MAX_FILE_BYTES } from '../../media-types.js';
import { digestUtf8, utf8Prefix } from '../digest/utf8-text.js';
import type { AskFile } from './ask-decide.js';

/** False when `value` is surely within the limit: at most 3 bytes of UTF-8 per code unit. */
export function mayExceedInlineLimit(value: string): boolean {
  return value.length * 3 > INLINE_VALUE_LIMIT;
}

/** Applies the rule to `value` of attribute `name`; returns the value to record. */
export function applyInlineValueLimit(name: string, value: string, json: boolean, ask: AskFile): string {
  if (!mayExceedInlineLimit(value)) return value;
  const size = Buffer.byteLength(value, 'utf8');
  if (size <= INLINE_VALUE_LIMIT || size > MAX_FILE_BYTES) return value;
  const digest = digestUtf8(value);
  const decision = ask({
    key: `${name}#`,
    sha256: digest.sha256,
    size: digest.size,
    contentType: json ? 'application/json' : 'text/plain',
    modality: 'document',
    source: { kind: 'utf8', text: value },
  });
  return decision === 'keep' ? value : utf8Prefix(value, INLINE_PREFIX_BYTES);
}
