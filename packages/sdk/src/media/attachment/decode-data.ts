/**
 * Decoding of the `data` of an attachment or a recorded file: bytes as given, a base64 string
 * (standard or URL-safe, padding optional, ASCII whitespace ignored) or a `data:` URL declaring a
 * media type (base64 or percent-encoded, read as the scanner reads them), refusing anything
 * decoding to more than `maxBytes` before decoding it.
 * @module
 */
import { parseDataUrl, percentDecode, startsWithDataScheme } from '../scan/media/data-url.js';

/** Decoded data, with the media type a `data:` URL declared. */
export type DecodedData =
  | { bytes: Uint8Array; declaredType: string | undefined }
  | { problem: 'not-data' | 'too-large' };

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;
const HAS_WHITESPACE = /[\t\n\f\r ]/;
const WHITESPACE = /[\t\n\f\r ]+/g;

function decodeBase64(text: string, maxBytes: number): DecodedData {
  const compact = HAS_WHITESPACE.test(text) ? text.replace(WHITESPACE, '') : text;
  if (!BASE64.test(compact)) return { problem: 'not-data' };
  const unpadded = compact.replace(/=+$/, '');
  if (unpadded.length % 4 === 1) return { problem: 'not-data' };
  if (Math.floor((unpadded.length * 3) / 4) > maxBytes) return { problem: 'too-large' };
  return { bytes: Buffer.from(unpadded, 'base64'), declaredType: undefined };
}

/** Decodes a `data:` URL declaring a media type; `declaredType` is that type with its parameters. */
function decodeDataUrl(text: string, maxBytes: number): DecodedData {
  const header = parseDataUrl(text, 0, text.length);
  if (header === undefined) return { problem: 'not-data' };
  const declaredType = header.mediaType.trim();
  if (header.base64) {
    const decoded = decodeBase64(text.slice(header.dataStart), maxBytes);
    return 'bytes' in decoded ? { bytes: decoded.bytes, declaredType } : decoded;
  }
  if (text.length - header.dataStart > maxBytes * 3) return { problem: 'too-large' };
  const bytes = percentDecode(text, header.dataStart, text.length);
  return bytes.length > maxBytes ? { problem: 'too-large' } : { bytes, declaredType };
}

/** Decodes `data` (bytes, base64 or a `data:` URL) of at most `maxBytes` decoded bytes. */
export function decodeData(data: unknown, maxBytes: number): DecodedData {
  if (data instanceof Uint8Array) {
    return data.byteLength > maxBytes ? { problem: 'too-large' } : { bytes: data, declaredType: undefined };
  }
  if (typeof data !== 'string') return { problem: 'not-data' };
  if (startsWithDataScheme(data, 0)) return decodeDataUrl(data, maxBytes);
  return decodeBase64(data, maxBytes);
}
