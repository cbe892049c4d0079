/**
 * Amazon Bedrock Converse content blocks (AWS Bedrock Runtime API reference: `ContentBlock`,
 * `ImageBlock`, `DocumentBlock`, `VideoBlock`; as JSON the `bytes` source is base64).
 *
 * - `{ image | document | video: { format, name?, source: { bytes } } }`: `bytes` removed,
 *   `sha256`/`size` added in `source`; `format` gives the media type; a document's name is `name`.
 * - `source.s3Location` is a reference.
 * @module
 */

import type { Modality } from '../../media-types.js';
import type { DigestMatch, NodeReader, PartMatch, Recognizer } from './recognizer.js';
import { hasString, isDigestAt, memberObject, memberString } from './recognizer.js';

/** Media types of the Converse `format` values, per block kind. */
export const BEDROCK_FORMATS: Readonly<
  Record<'image' | 'document' | 'video', Readonly<Record<string, string>>>
> = {
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
  if (format === undefined) return undefined;
  const formats = BEDROCK_FORMATS[kind];
  return Object.hasOwn(formats, format) ? formats[format] : undefined;
}

export const bedrock: Recognizer = {
  convention: 'Amazon Bedrock Converse (ContentBlock image/document/video with source.bytes)',
  types: [],
  untypedKeys: ['image', 'document', 'video'],

  match<N>(part: N, reader: NodeReader<N>): PartMatch | undefined {
    for (const kind of KINDS) {
      const block = memberObject(reader, part, kind);
      if (block === undefined) continue;
      const source = memberObject(reader, block, 'source');
      if (source === undefined || !hasString(reader, source, 'bytes')) continue;
      return {
        form: `bedrock.${kind}`,
        holderPath: [kind, 'source'],
        field: 'bytes',
        encoding: 'base64',
        mediaType: formatType(kind, memberString(reader, block, 'format')),
        modality: kind as Modality,
        name: kind === 'document' ? memberString(reader, block, 'name') : undefined,
      };
    }
    return undefined;
  },

  matchDigest<N>(part: N, reader: NodeReader<N>): DigestMatch | undefined {
    for (const kind of KINDS) {
      if (!isDigestAt(reader, part, [kind, 'source'], 'bytes')) continue;
      const block = memberObject(reader, part, kind)!;
      return {
        form: `bedrock.${kind}`,
        holderPath: [kind, 'source'],
        field: 'bytes',
        restoreAs: 'base64',
        mediaType: formatType(kind, memberString(reader, block, 'format')),
      };
    }
    return undefined;
  },
};
