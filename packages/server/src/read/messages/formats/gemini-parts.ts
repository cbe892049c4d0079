/**
 * Gemini content parts (`@google/genai` `Part`; the REST API's and the Python SDK's snake case):
 * `text` (a `thought` is reasoning), `inlineData` / `inline_data` (`mimeType`, `data`,
 * `displayName`; in digest form `sha256`/`size` in it), `fileData` / `file_data` (a reference:
 * `gs://` object-store URI, Files API URI), `functionCall`, `functionResponse` (with its
 * multimodal `parts`).
 * @module
 */

import { readByteField } from '../files/byte-field.js';
import { uriReference } from '../media/remote-reference.js';
import type { MessagePart } from '../message-types.js';
import { reasoningPart, remotePart, toolCallPart, toolResultPart } from '../parts/make-part.js';
import type { PartFormat } from '../parts/part-reader.js';
import { hasMember, member, objectMember, shortString, stringMember } from '../value/json-value.js';
import { childSite } from '../value/site.js';

const SPELLINGS = [
  {
    inline: 'inlineData',
    file: 'fileData',
    uri: 'fileUri',
    mimeType: 'mimeType',
    name: 'displayName',
    call: 'functionCall',
    response: 'functionResponse',
  },
  {
    inline: 'inline_data',
    file: 'file_data',
    uri: 'file_uri',
    mimeType: 'mime_type',
    name: 'display_name',
    call: 'function_call',
    response: 'function_response',
  },
] as const;

export const geminiParts: PartFormat = {
  name: 'Gemini (@google/genai Part; REST and Python snake case)',

  read(part, site, reader) {
    if (hasMember(part, 'type')) return undefined;
    for (const s of SPELLINGS) {
      const inline = objectMember(part, s.inline);
      if (inline !== undefined) {
        const found = readByteField(
          part,
          site,
          {
            holderPath: [s.inline],
            field: 'data',
            encoding: 'base64',
            mediaType: shortString(inline, s.mimeType),
            name: shortString(inline, s.name),
          },
          reader.blobs,
        );
        return found === undefined ? undefined : [found];
      }
      const file = objectMember(part, s.file);
      if (file !== undefined) {
        const uri = stringMember(file, s.uri);
        const reference =
          uri === undefined
            ? undefined
            : uriReference(uri, {
                mediaType: shortString(file, s.mimeType),
                name: shortString(file, s.name),
              });
        return reference === undefined ? undefined : [remotePart(reference, site)];
      }
      const call = objectMember(part, s.call);
      if (call !== undefined) {
        const name = shortString(call, 'name');
        if (name === undefined) return undefined;
        const args = member(call, 'args');
        return [
          toolCallPart(shortString(call, 'id'), name, args, site),
          ...reader.files(args, childSite(childSite(site, s.call), 'args')),
        ];
      }
      const response = objectMember(part, s.response);
      if (response !== undefined) {
        const responseSite = childSite(site, s.response);
        const output = reader.toolOutput(member(response, 'response'), childSite(responseSite, 'response'));
        const parts: MessagePart[] = [
          ...output.parts,
          ...reader.content(member(response, 'parts'), childSite(responseSite, 'parts')),
        ];
        return [
          toolResultPart(
            {
              id: shortString(response, 'id'),
              name: shortString(response, 'name'),
              parts,
              isError: output.isError,
            },
            site,
          ),
        ];
      }
    }
    const text = stringMember(part, 'text');
    if (text === undefined) return undefined;
    const textSite = childSite(site, 'text');
    return member(part, 'thought') === true ? [reasoningPart(text, textSite)] : reader.text(text, textSite);
  },
};
