/**
 * What the scanner records about a found file: its content type (the data: URL's, else the part's
 * declared type, else the file name's extension, else the bytes' signature, else the convention's
 * fallback), its modality and its name, and whether it counts as a file at all (text up to
 * 64 KiB stays inline; text in a field that is not base64 is a file only with a textual type).
 * @module
 */

import { mediaTypeOfFileName } from '@svc-run/conventions';
import { type Modality, TEXT_INLINE_LIMIT } from '../../media-types.js';
import { isTextualMediaType, mediaTypeEssence, modalityOf, UNKNOWN_MEDIA_TYPE } from '../media/media-type.js';
import { recordedContentType } from '../media/pcm-content-type.js';
import { sniffMediaType } from '../media/sniff-media-type.js';
import type { PartMatch } from '../recognizers/recognizer.js';
import { validFileName } from '../valid-file-name.js';
import type { FoundPayload } from './found-payload.js';

/** The recorded facts of a file. */
export interface FileFacts {
  contentType: string;
  modality: Modality;
  name?: string;
  /** The content type is textual (the file is text). */
  textual: boolean;
}

function contentTypeOf(mediaType: string | undefined): string | undefined {
  return mediaType === undefined ? undefined : recordedContentType(mediaType);
}

/** The facts of the file `payload` holds in a part matched as `match`, or `undefined` when it is no file. */
export function fileFacts(
  match: Pick<PartMatch, 'mediaType' | 'modality' | 'name' | 'fallbackMediaType'>,
  payload: FoundPayload,
): FileFacts | undefined {
  const name = validFileName(match.name) ?? validFileName(payload.dataUrlName);
  const contentType =
    contentTypeOf(payload.dataUrlType) ??
    contentTypeOf(match.mediaType) ??
    contentTypeOf(mediaTypeOfFileName(name)) ??
    (payload.head === undefined ? undefined : sniffMediaType(payload.head)) ??
    contentTypeOf(match.fallbackMediaType) ??
    UNKNOWN_MEDIA_TYPE;
  const essence = mediaTypeEssence(contentType) ?? UNKNOWN_MEDIA_TYPE;
  const textual = isTextualMediaType(essence);
  if (payload.plainText === true && !textual) return undefined;
  if (textual && payload.size <= TEXT_INLINE_LIMIT) return undefined;
  const modality = essence === UNKNOWN_MEDIA_TYPE ? (match.modality ?? 'document') : modalityOf(essence);
  const facts: FileFacts = { contentType, modality, textual };
  if (name !== undefined) facts.name = name;
  return facts;
}
