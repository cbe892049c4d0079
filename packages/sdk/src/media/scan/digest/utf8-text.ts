/**
 * UTF-8 helpers for text files and large values: the digest of a string's UTF-8 encoding without
 * encoding it whole, and the UTF-8-safe prefix kept inline when text uploads.
 * @module
 */

import { createHash } from 'node:crypto';

/** Code units hashed per step when digesting a long string. */
const CHUNK_UNITS = 1024 * 1024;

/** SHA-256 (hex) and size of the UTF-8 encoding of `text` (lone surrogates encode as U+FFFD). */
export function digestUtf8(text: string): { sha256: string; size: number } {
  const hash = createHash('sha256');
  if (text.length <= CHUNK_UNITS) {
    hash.update(text, 'utf8');
  } else {
    let position = 0;
    while (position < text.length) {
      let end = Math.min(text.length, position + CHUNK_UNITS);
      // never split a surrogate pair between two chunks
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
      hash.update(text.slice(position, end), 'utf8');
      position = end;
    }
  }
  return { sha256: hash.digest('hex'), size: Buffer.byteLength(text, 'utf8') };
}

/**
 * The longest prefix of `text` whose UTF-8 encoding is at most `maxBytes` bytes, never ending
 * between the two halves of a surrogate pair.
 */
export function utf8Prefix(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes) return text;
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    let units = 1;
    let width: number;
    if (c < 0x80) width = 1;
    else if (c < 0x800) width = 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        width = 4;
        units = 2;
      } else width = 3;
    } else width = 3;
    if (bytes + width > maxBytes) break;
    bytes += width;
    i += units;
  }
  return text.slice(0, i);
}

/** True when `text` holds no lone surrogate. */
export function isWellFormedText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c >= 0xdc00) return false;
    const next = text.charCodeAt(i + 1);
    if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
    i++;
  }
  return true;
}
