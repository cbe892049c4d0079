/**
 * The source digest of a local-code scorer: the SHA-256 declaration a scorer version pins.
 * @module
 */

import { createHash } from 'node:crypto';
import { describeValue } from '../../diagnostics/describe-value.js';

/** The prefix of a source digest. */
export const SOURCE_DIGEST_PREFIX = 'sha256:';

/** A source digest: `sha256:` and 64 lowercase hex digits. */
export const SOURCE_DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/u;

/**
 * The SHA-256 declaration of a scorer's source: `sha256:<64 lowercase hex>`, the digest of the
 * source's bytes. A string is hashed as its UTF-8 encoding (lone surrogates become U+FFFD, as
 * `TextEncoder` writes them); nothing is normalized, so line endings and whitespace count.
 *
 * @example
 * ```ts
 * sourceDigest('test'); // 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'
 * sourceDigest(readFileSync(new URL('./tone-scorer.ts', import.meta.url))); // the file's bytes
 * ```
 * @param source - The scorer's source code, as a string or bytes (at least one byte).
 * @throws TypeError when `source` is neither a string nor a `Uint8Array`, or is empty.
 */
export function sourceDigest(source: string | Uint8Array): string {
  if ((typeof source !== 'string' && !(source instanceof Uint8Array)) || source.length === 0) {
    throw new TypeError(
      `source must be a nonempty string or Uint8Array (the scorer's source code); got ${
        source instanceof Uint8Array ? 'an empty Uint8Array' : describeValue(source)
      }`,
    );
  }
  const bytes = typeof source === 'string' ? new TextEncoder().encode(source) : source;
  return `${SOURCE_DIGEST_PREFIX}${createHash('sha256').update(bytes).digest('hex')}`;
}
