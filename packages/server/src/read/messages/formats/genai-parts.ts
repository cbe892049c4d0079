/**
 * GenAI semantic-convention message parts (open-telemetry/semantic-conventions
 * `gen-ai-input-messages.json` / `gen-ai-output-messages.json`): `text`, `reasoning`, `tool_call`,
 * `tool_call_response`, `server_tool_call`, `server_tool_call_response`, `blob` (bytes as base64
 * `content`, or text for a textual `mime_type`; in digest form `sha256` and `size`, text over
 * 64 KiB keeping its prefix in `content`), `uri` and `file` (references, never read: even a
 * data: URL as a `uri` stays a reference). LangChain's v1 `tool_call` (`args`) reads the same.
 * @module
 */

import { readByteField } from '../files/byte-field.js';
import { fileIdReference, uriReference } from '../media/remote-reference.js';
import type { MessagePart } from '../message-types.js';
import { reasoningPart, remotePart, toolCallPart, toolResultPart } from '../parts/make-part.js';
import type { PartFormat } from '../parts/part-reader.js';
import { hasMember, type JsonObject, member, shortString, stringMember } from '../value/json-value.js';
import { childSite, type Site } from '../value/site.js';

function declared(part: JsonObject) {
  return { mediaType: shortString(part, 'mime_type'), name: shortString(part, 'name') };
}

function uriPart(part: JsonObject, site: Site): MessagePart[] | undefined {
  const uri = stringMember(part, 'uri');
  if (uri === undefined) return undefined;
  const facts = declared(part);
  const reference = uriReference(uri, facts) ?? { kind: 'uri' as const, uri, objectStore: false };
  return [remotePart(reference, site)];
}

export const genAiParts: PartFormat = {
  name: 'GenAI semantic conventions (gen-ai-input-messages.json, gen-ai-output-messages.json)',

  read(part, site, reader) {
    switch (shortString(part, 'type')) {
      case 'text': {
        const content = stringMember(part, 'content');
        return content === undefined ? undefined : reader.text(content, childSite(site, 'content'));
      }
      case 'reasoning': {
        const content = stringMember(part, 'content');
        return content === undefined ? undefined : [reasoningPart(content, childSite(site, 'content'))];
      }
      case 'tool_call':
      case 'server_tool_call': {
        const name = shortString(part, 'name');
        if (name === undefined) return undefined;
        const key = hasMember(part, 'arguments')
          ? 'arguments'
          : hasMember(part, 'args')
            ? 'args'
            : 'server_tool_call';
        const args = member(part, key);
        return [
          toolCallPart(shortString(part, 'id'), name, args, site),
          ...reader.files(args, childSite(site, key)),
        ];
      }
      case 'tool_call_response':
      case 'server_tool_call_response': {
        const key = hasMember(part, 'response') ? 'response' : 'server_tool_call_response';
        const output = reader.toolOutput(member(part, key), childSite(site, key));
        return [toolResultPart({ id: shortString(part, 'id'), ...output }, site)];
      }
      case 'blob': {
        const found = readByteField(
          part,
          site,
          {
            holderPath: [],
            field: 'content',
            encoding: 'blob-content',
            prefixField: true,
            ...declared(part),
          },
          reader.blobs,
        );
        return found === undefined ? undefined : [found];
      }
      case 'uri':
        return uriPart(part, site);
      case 'file': {
        const fileId = shortString(part, 'file_id');
        return fileId === undefined ? undefined : [remotePart(fileIdReference(fileId, declared(part)), site)];
      }
      default:
        return undefined;
    }
  },
};
