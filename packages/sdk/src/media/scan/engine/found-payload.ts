/**
 * Reading the bytes of a byte field (a string or array in JSON text, or a structured value) into
 * a digest and a {@link FileSource}, without decoding more than one slice at a time.
 * @module
 */

import { createHash } from 'node:crypto';
import type { FileSource } from '../../media-types.js';
import { digestBase64, HEAD_BYTES } from '../digest/base64-digest.js';
import { digestUtf8 } from '../digest/utf8-text.js';
import { parseDataUrl, percentDecode, startsWithDataScheme } from '../media/data-url.js';
import type { PayloadEncoding } from '../recognizers/recognizer.js';

/** The bytes found in a byte field. */
export interface FoundPayload {
  sha256: string;
  size: number;
  /** The first bytes, for recognizing the format; absent for plain text. */
  head?: Uint8Array;
  source: FileSource;
  /** The media type a data: URL declared, with its parameters. */
  dataUrlType?: string;
  /** A `name` parameter of a data: URL. */
  dataUrlName?: string;
  /** The field held text itself (not base64): a file only when its media type is textual. */
  plainText?: boolean;
}

/** Reads `text.slice(start, end)` (a string's decoded contents) as `encoding` allows. */
export function readStringPayload(
  text: string,
  start: number,
  end: number,
  encoding: PayloadEncoding,
): FoundPayload | undefined {
  if (start >= end) return undefined;
  if (startsWithDataScheme(text, start)) {
    const header = parseDataUrl(text, start, end);
    if (header === undefined) return undefined;
    const named = header.name === undefined ? {} : { dataUrlName: header.name };
    if (header.base64) {
      const digest = digestBase64(text, header.dataStart, end);
      if (digest === undefined) return undefined;
      return {
        sha256: digest.sha256,
        size: digest.size,
        head: digest.head,
        source: { kind: 'base64', text, start: header.dataStart, end },
        dataUrlType: header.mediaType,
        ...named,
      };
    }
    const bytes = percentDecode(text, header.dataStart, end);
    if (bytes.length === 0) return undefined;
    return { ...bytesPayload(bytes), dataUrlType: header.mediaType, ...named };
  }
  if (encoding === 'data-url') return undefined;
  const digest = digestBase64(text, start, end);
  if (digest !== undefined) {
    return {
      sha256: digest.sha256,
      size: digest.size,
      head: digest.head,
      source: { kind: 'base64', text, start, end },
    };
  }
  if (encoding !== 'blob-content') return undefined;
  const contents = start === 0 && end === text.length ? text : text.slice(start, end);
  const utf8 = digestUtf8(contents);
  return { sha256: utf8.sha256, size: utf8.size, source: { kind: 'utf8', text: contents }, plainText: true };
}

/** A payload of bytes held in memory. */
export function bytesPayload(bytes: Uint8Array): FoundPayload {
  return {
    sha256: createHash('sha256').update(bytes).digest('hex'),
    size: bytes.length,
    head: bytes.subarray(0, HEAD_BYTES),
    source: { kind: 'bytes', bytes },
  };
}

/**
 * The bytes of the JSON array `text.slice(start, end)` when every item is an integer 0–255
 * (`[137, 80, 78]`), otherwise `undefined`.
 */
export function readByteArrayText(
  text: string,
  start: number,
  end: number,
  count: number,
): Uint8Array | undefined {
  if (count === 0) return undefined;
  const bytes = new Uint8Array(count);
  let index = 0;
  let position = start + 1;
  const last = end - 1;
  while (position < last) {
    let c = text.charCodeAt(position);
    if (c === 32 || c === 10 || c === 13 || c === 9 || c === 44) {
      position++;
      continue;
    }
    let value = 0;
    let digits = 0;
    while (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      digits++;
      c = text.charCodeAt(++position);
    }
    if (digits === 0 || digits > 3 || value > 255 || index >= count) return undefined;
    bytes[index++] = value;
  }
  return index === count ? bytes : undefined;
}

/** The bytes of a JavaScript array when every item is an integer 0–255, otherwise `undefined`. */
export function readByteArrayValue(items: readonly unknown[]): Uint8Array | undefined {
  if (items.length === 0) return undefined;
  const bytes = new Uint8Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item !== 'number' || !Number.isInteger(item) || item < 0 || item > 255) return undefined;
    bytes[i] = item;
  }
  return bytes;
}
