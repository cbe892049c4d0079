/**
 * OpenAI Responses API parts and items (`openai` `ResponseInputContent`, `ResponseOutputText`,
 * `ResponseFunctionToolCall`, `ResponseReasoningItem`): `input_text`, `output_text`,
 * `summary_text`, `input_image` (a data: URL or web URL `image_url`, or a `file_id`),
 * `input_file` (`file_data` with `filename`, a `file_id` or a `file_url`), `function_call`,
 * `function_call_output`, `reasoning` (its `summary`).
 * @module
 */

import { readByteField } from '../files/byte-field.js';
import { fileIdReference, uriReference } from '../media/remote-reference.js';
import type { MessagePart } from '../message-types.js';
import { reasoningPart, remotePart, toolCallPart, toolResultPart } from '../parts/make-part.js';
import type { PartFormat } from '../parts/part-reader.js';
import {
  arrayMember,
  firstShortString,
  hasMember,
  type JsonObject,
  member,
  shortString,
  stringMember,
} from '../value/json-value.js';
import { childSite, type Site } from '../value/site.js';

function referencePart(part: JsonObject, site: Site, name?: string): MessagePart[] | undefined {
  const fileId = shortString(part, 'file_id');
  if (fileId !== undefined) return [remotePart(fileIdReference(fileId, { name }), site)];
  const url = stringMember(part, 'file_url');
  const reference = url === undefined ? undefined : uriReference(url, { name });
  return reference === undefined ? undefined : [remotePart(reference, site)];
}

function summaryParts(part: JsonObject, site: Site): MessagePart[] | undefined {
  const summary = arrayMember(part, 'summary');
  if (summary === undefined) return undefined;
  const parts: MessagePart[] = [];
  summary.forEach((item, index) => {
    const text = stringMember(item, 'text');
    if (text !== undefined)
      parts.push(reasoningPart(text, childSite(childSite(childSite(site, 'summary'), index), 'text')));
  });
  return parts;
}

export const openAiResponsesParts: PartFormat = {
  name: 'OpenAI Responses API (openai ResponseInputContent, ResponseOutputItem)',

  read(part, site, reader) {
    switch (shortString(part, 'type')) {
      case 'input_text':
      case 'output_text':
      case 'summary_text': {
        const text = stringMember(part, 'text');
        return text === undefined ? undefined : reader.text(text, childSite(site, 'text'));
      }
      case 'input_image': {
        if (hasMember(part, 'image_url') || hasMember(part, 'sha256')) {
          const found = readByteField(
            part,
            site,
            { holderPath: [], field: 'image_url', encoding: 'data-url' },
            reader.blobs,
          );
          if (found !== undefined) return [found];
        }
        return referencePart(part, site);
      }
      case 'input_file': {
        const name = shortString(part, 'filename');
        if (hasMember(part, 'file_data') || hasMember(part, 'sha256')) {
          const found = readByteField(
            part,
            site,
            { holderPath: [], field: 'file_data', encoding: 'base64', name },
            reader.blobs,
          );
          if (found !== undefined) return [found];
        }
        return referencePart(part, site, name);
      }
      case 'function_call':
      case 'custom_tool_call': {
        const name = shortString(part, 'name');
        if (name === undefined) return undefined;
        const key = hasMember(part, 'arguments') ? 'arguments' : 'input';
        const args = member(part, key);
        return [
          toolCallPart(firstShortString(part, ['call_id', 'id']), name, args, site),
          ...reader.files(args, childSite(site, key)),
        ];
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const output = reader.toolOutput(member(part, 'output'), childSite(site, 'output'));
        return [toolResultPart({ id: shortString(part, 'call_id'), ...output }, site)];
      }
      case 'reasoning':
        return summaryParts(part, site);
      default:
        return undefined;
    }
  },
};
