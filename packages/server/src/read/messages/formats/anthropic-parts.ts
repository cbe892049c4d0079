/**
 * Anthropic Messages content blocks (`@anthropic-ai/sdk` `ContentBlockParam`, `ContentBlock`):
 * `image` and `document` with a `base64` source (in digest form `sha256`/`size` in `source`), a
 * `text` source (stays text), a `content` source (its blocks), a `url` source or a `file` source
 * (references); `tool_use` / `server_tool_use`, `tool_result` (`is_error`), `thinking`.
 * @module
 */

import { readByteField } from '../files/byte-field.js';
import { fileIdReference, uriReference } from '../media/remote-reference.js';
import type { MessagePart } from '../message-types.js';
import { reasoningPart, remotePart, textPart, toolCallPart, toolResultPart } from '../parts/make-part.js';
import type { PartFormat, PartReader } from '../parts/part-reader.js';
import { type JsonObject, member, objectMember, shortString, stringMember } from '../value/json-value.js';
import { childSite, type Site } from '../value/site.js';

function sourcePart(
  part: JsonObject,
  site: Site,
  reader: PartReader,
  image: boolean,
): MessagePart[] | undefined {
  const source = objectMember(part, 'source');
  if (source === undefined) return undefined;
  const name = image ? undefined : shortString(part, 'title');
  const mediaType = shortString(source, 'media_type');
  const sourceSite = childSite(site, 'source');
  switch (shortString(source, 'type')) {
    case 'base64': {
      const found = readByteField(
        part,
        site,
        { holderPath: ['source'], field: 'data', encoding: 'base64', mediaType, name },
        reader.blobs,
      );
      return found === undefined ? undefined : [found];
    }
    case 'text': {
      const data = stringMember(source, 'data');
      return data === undefined ? undefined : [textPart(data, childSite(sourceSite, 'data'))];
    }
    case 'content':
      return reader.content(member(source, 'content'), childSite(sourceSite, 'content'));
    case 'url': {
      const url = stringMember(source, 'url');
      const reference = url === undefined ? undefined : uriReference(url, { mediaType, name });
      return reference === undefined ? undefined : [remotePart(reference, site)];
    }
    case 'file': {
      const fileId = shortString(source, 'file_id');
      return fileId === undefined
        ? undefined
        : [remotePart(fileIdReference(fileId, { mediaType, name }, 'anthropic'), site)];
    }
    default:
      return undefined;
  }
}

export const anthropicParts: PartFormat = {
  name: 'Anthropic Messages (@anthropic-ai/sdk ContentBlockParam)',

  read(part, site, reader) {
    const type = shortString(part, 'type');
    switch (type) {
      case 'image':
      case 'document':
        return sourcePart(part, site, reader, type === 'image');
      case 'tool_use':
      case 'server_tool_use': {
        const name = shortString(part, 'name');
        if (name === undefined) return undefined;
        const input = member(part, 'input');
        return [
          toolCallPart(shortString(part, 'id'), name, input, site),
          ...reader.files(input, childSite(site, 'input')),
        ];
      }
      case 'tool_result': {
        const output = reader.toolOutput(member(part, 'content'), childSite(site, 'content'));
        const isError = member(part, 'is_error');
        return [
          toolResultPart(
            {
              id: shortString(part, 'tool_use_id'),
              parts: output.parts,
              isError: isError === true ? true : output.isError,
            },
            site,
          ),
        ];
      }
      case 'thinking': {
        const thinking = stringMember(part, 'thinking');
        return thinking === undefined ? undefined : [reasoningPart(thinking, childSite(site, 'thinking'))];
      }
      default:
        return undefined;
    }
  },
};
