/**
 * Decoding of the `data` of an attachment or a recorded file: bytes as given, a base64 string
 * (standard or URL-safe, padding optional, ASCII whitespace ignored) or a `data:` URL (base64 or
 * percent-encoded), refusing anything decoding to more than `maxBytes` before decoding it.
 * @module
 */

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

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** Percent-decodes `text` to bytes (other characters as UTF-8); `undefined` when malformed. */
function percentDecode(text: string): Buffer | undefined {
  const raw = Buffer.from(text, 'utf8');
  const out = Buffer.allocUnsafe(raw.length);
  let n = 0;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i]!;
    if (byte !== 0x25) {
      out[n++] = byte;
      continue;
    }
    const high = hexValue(raw[i + 1] ?? -1);
    const low = hexValue(raw[i + 2] ?? -1);
    if (high < 0 || low < 0) return undefined;
    out[n++] = high * 16 + low;
    i += 2;
  }
  return out.subarray(0, n);
}

/** Decodes a `data:` URL; `declaredType` is its media type (parameters kept), when it has one. */
function decodeDataUrl(text: string, maxBytes: number): DecodedData {
  const comma = text.indexOf(',');
  if (comma < 0) return { problem: 'not-data' };
  const header = text.slice(5, comma).trim();
  const payload = text.slice(comma + 1);
  const parts = header.split(';').map((part) => part.trim());
  const base64 = parts.length > 1 && parts[parts.length - 1]!.toLowerCase() === 'base64';
  if (base64) parts.pop();
  const declaredType = parts[0] === '' ? undefined : parts.join(';');
  if (base64) {
    const decoded = decodeBase64(payload, maxBytes);
    return 'bytes' in decoded ? { bytes: decoded.bytes, declaredType } : decoded;
  }
  if (payload.length > maxBytes * 3) return { problem: 'too-large' };
  const bytes = percentDecode(payload);
  if (bytes === undefined) return { problem: 'not-data' };
  return bytes.length > maxBytes ? { problem: 'too-large' } : { bytes, declaredType };
}

/** Decodes `data` (bytes, base64 or a `data:` URL) of at most `maxBytes` decoded bytes. */
export function decodeData(data: unknown, maxBytes: number): DecodedData {
  if (data instanceof Uint8Array) {
    return data.byteLength > maxBytes ? { problem: 'too-large' } : { bytes: data, declaredType: undefined };
  }
  if (typeof data !== 'string') return { problem: 'not-data' };
  if (/^data:/i.test(data)) return decodeDataUrl(data, maxBytes);
  return decodeBase64(data, maxBytes);
}
