/**
 * Amazon Bedrock Converse content blocks (Bedrock Runtime API reference: `ContentBlock`,
 * `ImageBlock`, `DocumentBlock`, `VideoBlock`, `ToolUseBlock`, `ToolResultBlock`,
 * `ReasoningContentBlock`; in the API's JSON `bytes` are base64): `image` / `document` / `video`
 * with `source.bytes` (in digest form `sha256`/`size` in `source`; `format` gives the media type,
 * a document's name is `name`), `source.s3Location` (an object-store reference), a document's
 * `source.text` / `source.content`; `toolUse`, `toolResult` (`status: "error"`),
 * `reasoningContent`. A `{ text }` block is read as Gemini's text part, which it equals.
 * @module
 */

import { readByteField } from '../files/byte-field.js';
import { uriReference } from '../media/remote-reference.js';
import { reasoningPart, remotePart, toolCallPart, toolResultPart } from '../parts/make-part.js';
import type { PartFormat } from '../parts/part-reader.js';
import { hasMember, member, objectMember, shortString, stringMember } from '../value/json-value.js';
import { childSite } from '../value/site.js';

/** Media types of the Converse `format` values, per block kind. */
const FORMATS: Readonly<Record<'image' | 'document' | 'video', Readonly<Record<string, string>>>> = {
  image: { png: 'image/png', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' },
  document: {
    pdf: 'application/pdf',
    csv: 'text/csv',
    doc: 'application/msword',
    docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    xls: 'application/vnd.ms-excel',
    xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    html: 'text/html',
    txt: 'text/plain',
    md: 'text/markdown',
  },
  video: {
    mkv: 'video/x-matroska',
    mov: 'video/quicktime',
    mp4: 'video/mp4',
    webm: 'video/webm',
    flv: 'video/x-flv',
    mpeg: 'video/mpeg',
    mpg: 'video/mpeg',
    wmv: 'video/x-ms-wmv',
    three_gp: 'video/3gpp',
  },
};

const KINDS = ['image', 'document', 'video'] as const;

function formatType(kind: (typeof KINDS)[number], format: string | undefined): string | undefined {
  const formats = FORMATS[kind];
  return format !== undefined && Object.hasOwn(formats, format) ? formats[format] : undefined;
}

export const bedrockParts: PartFormat = {
  name: 'Amazon Bedrock Converse (ContentBlock)',

  read(part, site, reader) {
    if (hasMember(part, 'type')) return undefined;
    for (const kind of KINDS) {
      const block = objectMember(part, kind);
      const source = objectMember(block, 'source');
      if (block === undefined || source === undefined) continue;
      const blockSite = childSite(site, kind);
      const sourceSite = childSite(blockSite, 'source');
      const mediaType = formatType(kind, shortString(block, 'format'));
      const name = kind === 'document' ? shortString(block, 'name') : undefined;
      const found = readByteField(
        part,
        site,
        { holderPath: [kind, 'source'], field: 'bytes', encoding: 'base64', mediaType, name },
        reader.blobs,
      );
      if (found !== undefined) return [found];
      const uri = stringMember(objectMember(source, 's3Location'), 'uri');
      const reference = uri === undefined ? undefined : uriReference(uri, { mediaType, name });
      if (reference !== undefined) return [remotePart(reference, site)];
      const text = stringMember(source, 'text');
      if (text !== undefined) return reader.text(text, childSite(sourceSite, 'text'));
      if (hasMember(source, 'content'))
        return reader.content(member(source, 'content'), childSite(sourceSite, 'content'));
      return undefined;
    }
    const toolUse = objectMember(part, 'toolUse');
    if (toolUse !== undefined) {
      const name = shortString(toolUse, 'name');
      if (name === undefined) return undefined;
      const input = member(toolUse, 'input');
      return [
        toolCallPart(shortString(toolUse, 'toolUseId'), name, input, site),
        ...reader.files(input, childSite(childSite(site, 'toolUse'), 'input')),
      ];
    }
    const toolResult = objectMember(part, 'toolResult');
    if (toolResult !== undefined) {
      const output = reader.toolOutput(
        member(toolResult, 'content'),
        childSite(childSite(site, 'toolResult'), 'content'),
      );
      const failed = shortString(toolResult, 'status') === 'error';
      return [
        toolResultPart(
          {
            id: shortString(toolResult, 'toolUseId'),
            parts: output.parts,
            isError: failed ? true : output.isError,
          },
          site,
        ),
      ];
    }
    const reasoning = objectMember(objectMember(part, 'reasoningContent'), 'reasoningText');
    const text = stringMember(reasoning, 'text');
    if (text !== undefined) {
      return [
        reasoningPart(
          text,
          childSite(childSite(childSite(site, 'reasoningContent'), 'reasoningText'), 'text'),
        ),
      ];
    }
    return undefined;
  },
};
