/**
 * Base64 text as the SDK's scanner accepts it (its `base64-digest.ts`): the standard and URL-safe
 * alphabets, padding optional; anything else (whitespace, other characters, misplaced `=`) is not
 * base64. Digests are computed slice by slice, so no decoded copy of a large file is held.
 *
 * Validation is free: Node's decoder skips characters outside the alphabet, and for a body whose
 * length is not 1 mod 4 any skipped character lowers the decoded length, so comparing the bytes
 * written with the length the character count implies checks every character.
 * @module
 */

import { createHash } from 'node:crypto';

/** Largest file the service stores (bytes). */
const MAX_FILE_BYTES = 1_000_000_000;
/** Base64 characters per slice (decodes to 1 MiB at most). */
const SLICE_UNITS = Math.floor((1024 * 1024) / 3) * 4;
/** Leading bytes kept for recognizing the format. */
export const HEAD_BYTES = 16;

/** Bytes that `units` base64 characters (without padding) decode to. */
function decodedLength(units: number): number {
  const rest = units & 3;
  return (units >>> 2) * 3 + (rest === 0 ? 0 : rest - 1);
}

/** The end of the base64 body of `text.slice(start)` (before padding), or -1 when invalid. */
function bodyEnd(text: string, start: number): number {
  const end = text.length;
  let body = end;
  if (body > start && text.charCodeAt(body - 1) === 61) body--;
  if (body > start && text.charCodeAt(body - 1) === 61) body--;
  const units = body - start;
  if (units === 0 || (units & 3) === 1) return -1;
  if (body !== end && ((end - start) & 3) !== 0) return -1;
  return body;
}

/** The digest of base64 text. */
export interface Base64Digest {
  sha256: string;
  size: number;
  head: Uint8Array;
}

/**
 * SHA-256, size and first bytes of the base64 text `text.slice(start)`, or `undefined` when it is
 * empty, not base64, or larger than the largest file the service stores.
 */
export function digestBase64(text: string, start = 0): Base64Digest | undefined {
  const end = bodyEnd(text, start);
  if (end < 0) return undefined;
  const size = decodedLength(end - start);
  if (size > MAX_FILE_BYTES) return undefined;
  const hash = createHash('sha256');
  let head: Uint8Array | undefined;
  for (let position = start; position < end; position += SLICE_UNITS) {
    const sliceEnd = Math.min(end, position + SLICE_UNITS);
    const expected = decodedLength(sliceEnd - position);
    const slice = Buffer.alloc(expected);
    if (slice.write(text.slice(position, sliceEnd), 0, 'base64') !== expected) return undefined;
    head ??= slice.subarray(0, Math.min(HEAD_BYTES, expected));
    hash.update(slice);
  }
  return { sha256: hash.digest('hex'), size, head: head ?? new Uint8Array(0) };
}

/** The bytes of the base64 text `text.slice(start)`, or `undefined` when it is not base64. */
export function decodeBase64(text: string, start = 0): Uint8Array | undefined {
  const end = bodyEnd(text, start);
  if (end < 0) return undefined;
  const expected = decodedLength(end - start);
  const bytes = Buffer.alloc(expected);
  return bytes.write(text.slice(start, end), 0, 'base64') === expected ? bytes : undefined;
}
