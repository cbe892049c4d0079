/**
 * `data:` URLs (RFC 2397) as the SDK's scanner reads them: a data: URL counts as a file only
 * when it declares a media type (`data:,text` does not); its data is base64 or percent-encoded.
 * @module
 */

import { mediaTypeEssence, mediaTypeParameters } from './media-type.js';

/** The parsed header of a data: URL. */
export interface DataUrlHeader {
  /** The declared media type with its parameters (without `;base64`). */
  mediaType: string;
  base64: boolean;
  /** Index of the first data character (just after the comma). */
  dataStart: number;
  /** A `name` or `filename` parameter, percent-decoded. */
  name?: string;
}

const MAX_HEADER_UNITS = 1024;

/** True when `text` starts with `data:` (any case). */
export function startsWithDataScheme(text: string): boolean {
  return text.length >= 5 && text.slice(0, 5).toLowerCase() === 'data:';
}

/** The header of the data: URL `text`, or `undefined` when it is not one declaring a media type. */
export function parseDataUrl(text: string): DataUrlHeader | undefined {
  if (!startsWithDataScheme(text)) return undefined;
  const comma = text.indexOf(',', 5);
  if (comma < 0 || comma > MAX_HEADER_UNITS) return undefined;
  const header = text.slice(5, comma);
  let mediaType = header;
  let base64 = false;
  const lastSemicolon = header.lastIndexOf(';');
  if (
    lastSemicolon >= 0 &&
    header
      .slice(lastSemicolon + 1)
      .trim()
      .toLowerCase() === 'base64'
  ) {
    base64 = true;
    mediaType = header.slice(0, lastSemicolon);
  }
  if (mediaTypeEssence(mediaType) === undefined) return undefined;
  const result: DataUrlHeader = { mediaType, base64, dataStart: comma + 1 };
  const parameters = mediaTypeParameters(mediaType);
  const rawName = parameters.get('name') ?? parameters.get('filename');
  if (rawName !== undefined) {
    try {
      result.name = decodeURIComponent(rawName);
    } catch {
      // not percent-encoded properly: no name
    }
  }
  return result;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** The bytes of percent-encoded data: `%XX` is a byte, other characters are UTF-8 encoded. */
export function percentDecode(text: string): Uint8Array {
  const encoded = Buffer.from(text, 'utf8');
  if (encoded.indexOf(37) < 0) return encoded;
  const out = Buffer.allocUnsafe(encoded.length);
  let length = 0;
  for (let i = 0; i < encoded.length; i++) {
    const byte = encoded[i]!;
    if (byte === 37 && i + 2 < encoded.length) {
      const high = hexValue(encoded[i + 1]!);
      const low = hexValue(encoded[i + 2]!);
      if (high >= 0 && low >= 0) {
        out[length++] = high * 16 + low;
        i += 2;
        continue;
      }
    }
    out[length++] = byte;
  }
  return out.subarray(0, length);
}
