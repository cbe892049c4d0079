/**
 * SHA-256 and size of base64 text, read slice by slice straight from the text it sits in (no
 * decoded copy of the whole file is ever held). Standard and URL-safe alphabets are accepted,
 * padding optional; anything else (whitespace, other characters, misplaced `=`) means the text is
 * not base64.
 *
 * Validation is free: Node's decoder skips characters outside the alphabet, and for a body whose
 * length is not 1 mod 4 any skipped character lowers the decoded length, so comparing the bytes
 * written with the length the character count implies checks every character.
 * @module
 */

import { createHash } from 'node:crypto';
import { MAX_FILE_BYTES, SLICE_BYTES } from '../../media-types.js';

/** Base64 characters per slice: the largest multiple of 4 decoding to at most {@link SLICE_BYTES}. */
export const BASE64_SLICE_UNITS = Math.floor(SLICE_BYTES / 3) * 4;
const SLICE_DECODED_BYTES = (BASE64_SLICE_UNITS / 4) * 3;
/** How many leading bytes {@link digestBase64} keeps for recognizing the format. */
export const HEAD_BYTES = 16;

/** The digest of a base64 range. */
export interface Base64Digest {
  /** SHA-256 of the decoded bytes, 64 lowercase hex characters. */
  sha256: string;
  /** Decoded size in bytes. */
  size: number;
  /** The first (up to {@link HEAD_BYTES}) decoded bytes. */
  head: Uint8Array;
}

/** Bytes that `units` base64 characters (without padding) decode to. */
export function decodedLength(units: number): number {
  const rest = units & 3;
  return (units >>> 2) * 3 + (rest === 0 ? 0 : rest - 1);
}

/** The end of the base64 body of `text.slice(start, end)` (before padding), or -1 when invalid. */
export function base64BodyEnd(text: string, start: number, end: number): number {
  let bodyEnd = end;
  if (bodyEnd > start && text.charCodeAt(bodyEnd - 1) === 61) bodyEnd--;
  if (bodyEnd > start && text.charCodeAt(bodyEnd - 1) === 61) bodyEnd--;
  const units = bodyEnd - start;
  if (units === 0 || (units & 3) === 1) return -1;
  if (bodyEnd !== end && ((end - start) & 3) !== 0) return -1;
  return bodyEnd;
}

let scratch: Buffer | undefined;

/**
 * Digest of the base64 text `text.slice(start, end)`, or `undefined` when it is empty, not
 * base64, or decodes to more than the largest file the service stores.
 */
export function digestBase64(text: string, start: number, end: number): Base64Digest | undefined {
  const bodyEnd = base64BodyEnd(text, start, end);
  if (bodyEnd < 0) return undefined;
  const size = decodedLength(bodyEnd - start);
  if (size > MAX_FILE_BYTES) return undefined;
  scratch ??= Buffer.allocUnsafe(SLICE_DECODED_BYTES);
  const buffer = scratch;
  const hash = createHash('sha256');
  let head: Uint8Array | undefined;
  for (let position = start; position < bodyEnd; position += BASE64_SLICE_UNITS) {
    const sliceEnd = Math.min(bodyEnd, position + BASE64_SLICE_UNITS);
    const written = buffer.write(text.slice(position, sliceEnd), 0, 'base64');
    if (written !== decodedLength(sliceEnd - position)) return undefined;
    if (head === undefined) head = new Uint8Array(buffer.subarray(0, Math.min(HEAD_BYTES, written)));
    hash.update(buffer.subarray(0, written));
  }
  return { sha256: hash.digest('hex'), size, head: head ?? new Uint8Array(0) };
}

/**
 * The decoded bytes of `text.slice(start, end)` (base64 as {@link digestBase64} accepts it) in
 * slices of at most {@link SLICE_BYTES}; each slice is a new buffer the caller may keep.
 * Throws a `RangeError` when the text turns out not to be base64.
 */
export function* base64Slices(text: string, start: number, end: number): Generator<Uint8Array> {
  const bodyEnd = base64BodyEnd(text, start, end);
  if (bodyEnd < 0) throw new RangeError('The text is not base64.');
  for (let position = start; position < bodyEnd; position += BASE64_SLICE_UNITS) {
    const sliceEnd = Math.min(bodyEnd, position + BASE64_SLICE_UNITS);
    const expected = decodedLength(sliceEnd - position);
    const slice = Buffer.allocUnsafe(expected);
    if (slice.write(text.slice(position, sliceEnd), 0, 'base64') !== expected) {
      throw new RangeError('The text is not base64.');
    }
    yield slice;
  }
}
