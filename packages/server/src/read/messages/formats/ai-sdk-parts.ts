/**
 * Vercel AI SDK message parts, v4 to v7 (`ai` `ModelMessage` parts, `LanguageModelV2`–`V4`
 * prompt parts as `ai.prompt.messages` records them, tool output content): `reasoning`, `image`
 * (`image`), `file` (`data`, `mediaType` or v4 `mimeType`, `filename`), tool output content
 * `media` / `image-data` / `file-data` and `image-url` / `file-url`, `tool-call` (`input`, v4
 * `args`), `tool-result` (`output`, v4 `result`). Bytes are bare base64, a data: URL, or a JSON
 * array of byte numbers; a URL is a reference; the v6 object of numbered bytes (`JSON.stringify`
 * of a `Uint8Array` in `ai.prompt`) is not read as a file and stays as recorded. `text` parts
 * read as OpenAI's, which they equal.
 * @module
 */

import { readByteField } from '../files/byte-field.js';
import { uriReference } from '../media/remote-reference.js';
import { otherPart, reasoningPart, remotePart, toolCallPart, toolResultPart } from '../parts/make-part.js';
import type { PartFormat } from '../parts/part-reader.js';
import { firstShortString, hasMember, member, shortString, stringMember } from '../value/json-value.js';
import { childSite } from '../value/site.js';

const BYTE_FIELDS: Readonly<Record<string, 'image' | 'data'>> = {
  image: 'image',
  file: 'data',
  media: 'data',
  'image-data': 'data',
  'file-data': 'data',
};

export const aiSdkParts: PartFormat = {
  name: 'Vercel AI SDK v4–v7 (ai ModelMessage parts, LanguageModelV2–V4 prompt parts, tool output content)',

  read(part, site, reader) {
    const type = shortString(part, 'type');
    if (type === undefined) return undefined;
    if (Object.hasOwn(BYTE_FIELDS, type)) {
      const field = BYTE_FIELDS[type]!;
      if (!hasMember(part, field) && !hasMember(part, 'sha256')) return undefined;
      const found = readByteField(
        part,
        site,
        {
          holderPath: [],
          field,
          encoding: 'binary',
          mediaType: firstShortString(part, ['mediaType', 'mimeType', 'mime_type']),
          name: shortString(part, 'filename'),
        },
        reader.blobs,
      );
      // an object of numbered bytes, or bytes that do not decode: kept as recorded
      return [found ?? otherPart(part, site)];
    }
    switch (type) {
      case 'reasoning': {
        const text = stringMember(part, 'text');
        return text === undefined ? undefined : [reasoningPart(text, childSite(site, 'text'))];
      }
      case 'image-url':
      case 'file-url': {
        const url = stringMember(part, 'url');
        const reference =
          url === undefined ? undefined : uriReference(url, { mediaType: shortString(part, 'mediaType') });
        return reference === undefined ? undefined : [remotePart(reference, site)];
      }
      case 'tool-call': {
        const name = shortString(part, 'toolName');
        if (name === undefined) return undefined;
        const key = hasMember(part, 'input') ? 'input' : 'args';
        const args = member(part, key);
        return [
          toolCallPart(shortString(part, 'toolCallId'), name, args, site),
          ...reader.files(args, childSite(site, key)),
        ];
      }
      case 'tool-result': {
        const key = hasMember(part, 'output') ? 'output' : 'result';
        const output = reader.toolOutput(member(part, key), childSite(site, key));
        return [
          toolResultPart(
            { id: shortString(part, 'toolCallId'), name: shortString(part, 'toolName'), ...output },
            site,
          ),
        ];
      }
      default:
        return undefined;
    }
  },
};
