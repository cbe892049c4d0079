/**
 * What a file found inline is listed as, by the SDK's scanner rules (its `file-facts.ts`): its
 * content type (the data: URL's, else the part's declared type, else the file name's extension,
 * else the bytes' signature, else the format's fallback), its name, and whether it counts as a
 * file at all (text up to 64 KiB stays inline as text; text in a field that is not base64 is a
 * file only with a textual type).
 * @module
 */

import { mediaTypeOfFileName } from '@svc-run/conventions';
import { validFileName } from '../../../media/listed-files.js';
import { isTextualMediaType, mediaTypeEssence, UNKNOWN_MEDIA_TYPE } from './media-type.js';
import type { Payload } from './payload.js';
import { recordedContentType } from './pcm-content-type.js';
import { sniffMediaType } from './sniff-media-type.js';

/** Text media up to this size (decoded bytes) stays inline as text. */
export const TEXT_INLINE_LIMIT = 64 * 1024;

/** What a part declares about its file. */
export interface DeclaredFile {
  /** The media type the part declares. */
  mediaType?: string | undefined;
  /** The file name the part gives. */
  name?: string | undefined;
  /** The media type when none is declared and the bytes are not recognized. */
  fallbackMediaType?: string | undefined;
}

/** How an inline payload is read. */
export type InlineFacts =
  | { kind: 'file'; contentType: string; name?: string; textual: boolean }
  /** Text media up to 64 KiB: shown as text. */
  | { kind: 'text'; contentType: string };

/** The facts of the file `payload` holds in a part declaring `declared`; `undefined` when it is no file. */
export function inlineFacts(declared: DeclaredFile, payload: Payload): InlineFacts | undefined {
  const name = validFileName(declared.name) ?? validFileName(payload.dataUrlName);
  const contentType =
    recordedContentType(payload.dataUrlType) ??
    recordedContentType(declared.mediaType) ??
    recordedContentType(mediaTypeOfFileName(name)) ??
    recordedContentType(sniffMediaType(payload.head)) ??
    recordedContentType(declared.fallbackMediaType) ??
    UNKNOWN_MEDIA_TYPE;
  const textual = isTextualMediaType(mediaTypeEssence(contentType) ?? UNKNOWN_MEDIA_TYPE);
  if (payload.plainText === true && !textual) return undefined;
  if (textual && payload.size <= TEXT_INLINE_LIMIT) return { kind: 'text', contentType };
  return name === undefined
    ? { kind: 'file', contentType, textual }
    : { kind: 'file', contentType, name, textual };
}

/**
 * The content type of a digest-form file without a `svc.blobs` entry (a file refused at export):
 * what the part still declares, else its name's extension. A format's fallback is not used: the
 * bytes that would have told are gone.
 */
export function declaredContentType(declared: DeclaredFile, name: string | undefined): string {
  return (
    recordedContentType(declared.mediaType) ??
    recordedContentType(mediaTypeOfFileName(name)) ??
    UNKNOWN_MEDIA_TYPE
  );
}
