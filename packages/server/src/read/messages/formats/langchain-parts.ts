/**
 * LangChain standard content blocks (`@langchain/core` messages), as Langfuse and OpenInference
 * record LangChain messages: v0.3 data blocks `{ type, source_type, data | url | id, mime_type }`
 * and v1 blocks `{ type, base64 | url | file_id, mime_type }` for `image`, `audio`, `video` and
 * `file`; the name is `filename`, `name` or `title`, or the same in `metadata`. In digest form
 * the byte field (`data` or `base64`) is replaced by `sha256`/`size`. v1 `reasoning` blocks too.
 * @module
 */

import { readByteField } from '../files/byte-field.js';
import { fileIdReference, uriReference } from '../media/remote-reference.js';
import type { MessagePart } from '../message-types.js';
import { reasoningPart, remotePart } from '../parts/make-part.js';
import type { PartFormat } from '../parts/part-reader.js';
import {
  firstShortString,
  hasMember,
  type JsonObject,
  objectMember,
  shortString,
  stringMember,
} from '../value/json-value.js';
import { childSite, type Site } from '../value/site.js';

const TYPES = new Set(['image', 'audio', 'video', 'file']);
const NAME_KEYS = ['filename', 'name', 'title'];

function nameOf(part: JsonObject): string | undefined {
  return firstShortString(part, NAME_KEYS) ?? firstShortString(objectMember(part, 'metadata'), NAME_KEYS);
}

function referencePart(
  part: JsonObject,
  site: Site,
  sourceType: string | undefined,
): MessagePart[] | undefined {
  const declared = { mediaType: firstShortString(part, ['mime_type', 'mimeType']), name: nameOf(part) };
  const url = stringMember(part, 'url');
  if (url !== undefined && (sourceType === 'url' || sourceType === undefined)) {
    const reference = uriReference(url, declared);
    return reference === undefined ? undefined : [remotePart(reference, site)];
  }
  const id = sourceType === 'id' ? shortString(part, 'id') : shortString(part, 'file_id');
  return id === undefined ? undefined : [remotePart(fileIdReference(id, declared), site)];
}

export const langChainParts: PartFormat = {
  name: 'LangChain standard content blocks (@langchain/core, v0.3 data blocks and v1 blocks)',

  read(part, site, reader) {
    const type = shortString(part, 'type');
    if (type === 'reasoning') {
      const reasoning = stringMember(part, 'reasoning');
      return reasoning === undefined ? undefined : [reasoningPart(reasoning, childSite(site, 'reasoning'))];
    }
    if (type === undefined || !TYPES.has(type)) return undefined;
    const sourceType = shortString(part, 'source_type');
    const mediaType = firstShortString(part, ['mime_type', 'mimeType']);
    const field =
      sourceType === 'base64' ? 'data' : shortString(part, 'mime_type') !== undefined ? 'base64' : undefined;
    if (field !== undefined) {
      const found = readByteField(
        part,
        site,
        { holderPath: [], field, encoding: 'base64', mediaType, name: nameOf(part) },
        reader.blobs,
      );
      if (found !== undefined) return [found];
    }
    if (sourceType === 'text') {
      const text = stringMember(part, 'text');
      return text === undefined ? undefined : reader.text(text, childSite(site, 'text'));
    }
    if (
      sourceType !== undefined ||
      shortString(part, 'mime_type') !== undefined ||
      hasMember(part, 'url') ||
      hasMember(part, 'file_id')
    ) {
      return referencePart(part, site, sourceType);
    }
    return undefined;
  },
};
