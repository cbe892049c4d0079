/**
 * The bytes a part's byte field holds inline: a data: URL, bare base64, text (GenAI blob content
 * of a textual type), a JSON array of byte numbers, or an OTLP `bytesValue`. Digests are over the
 * decoded bytes; text is hashed as UTF-8.
 * @module
 */

import { createHash } from 'node:crypto';
import { BytesValue } from '../value/bytes-value.js';
import { decodeBase64, digestBase64, HEAD_BYTES } from './base64-bytes.js';
import { parseDataUrl, percentDecode } from './data-url.js';

/**
 * How the bytes may be written in a byte field (as the SDK's recognizers say):
 * - `data-url`: a data: URL only (URL fields such as OpenAI `image_url.url`);
 * - `base64`: bare base64 or a data: URL;
 * - `binary`: bare base64, a data: URL, or a JSON array of byte numbers;
 * - `blob-content`: bare base64, a data: URL, or text when the media type is textual.
 * An OTLP `bytesValue` is read in every encoding but `data-url`.
 */
export type PayloadEncoding = 'data-url' | 'base64' | 'binary' | 'blob-content';

/** Bytes found in a byte field. */
export interface Payload {
  sha256: string;
  size: number;
  /** The first bytes, for recognizing the format. */
  head: Uint8Array;
  /** The media type a data: URL declared, with its parameters. */
  dataUrlType?: string;
  /** A `name` parameter of a data: URL. */
  dataUrlName?: string;
  /** The field held text itself (not base64): a file only when its media type is textual. */
  plainText?: boolean;
  /** The decoded bytes (decoded again on each call). */
  bytes(): Uint8Array;
}

function bytesPayload(bytes: Uint8Array): Payload {
  return {
    sha256: createHash('sha256').update(bytes).digest('hex'),
    size: bytes.length,
    head: bytes.subarray(0, HEAD_BYTES),
    bytes: () => bytes,
  };
}

function base64Payload(text: string, start: number): Payload | undefined {
  const digest = digestBase64(text, start);
  if (digest === undefined) return undefined;
  return { ...digest, bytes: () => decodeBase64(text, start) ?? new Uint8Array(0) };
}

function stringPayload(text: string, encoding: PayloadEncoding): Payload | undefined {
  if (text.length === 0) return undefined;
  const header = parseDataUrl(text);
  if (header !== undefined) {
    const named = header.name === undefined ? {} : { dataUrlName: header.name };
    const found = header.base64
      ? base64Payload(text, header.dataStart)
      : (() => {
          const bytes = percentDecode(text.slice(header.dataStart));
          return bytes.length === 0 ? undefined : bytesPayload(bytes);
        })();
    return found === undefined ? undefined : { ...found, dataUrlType: header.mediaType, ...named };
  }
  if (encoding === 'data-url') return undefined;
  const base64 = base64Payload(text, 0);
  if (base64 !== undefined) return base64;
  if (encoding !== 'blob-content') return undefined;
  return { ...bytesPayload(Buffer.from(text, 'utf8')), plainText: true };
}

function byteNumbers(items: readonly unknown[]): Uint8Array | undefined {
  if (items.length === 0) return undefined;
  const bytes = new Uint8Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item !== 'number' || !Number.isInteger(item) || item < 0 || item > 255) return undefined;
    bytes[i] = item;
  }
  return bytes;
}

/** The bytes `value` (a byte field's value) holds written as `encoding` allows, or `undefined`. */
export function readPayload(value: unknown, encoding: PayloadEncoding): Payload | undefined {
  if (typeof value === 'string') return stringPayload(value, encoding);
  if (encoding === 'data-url') return undefined;
  if (value instanceof BytesValue) {
    const bytes = decodeBase64(value.base64);
    return bytes === undefined || bytes.length === 0 ? undefined : bytesPayload(bytes);
  }
  if (encoding === 'binary' && Array.isArray(value)) {
    const bytes = byteNumbers(value);
    return bytes === undefined ? undefined : bytesPayload(bytes);
  }
  return undefined;
}
