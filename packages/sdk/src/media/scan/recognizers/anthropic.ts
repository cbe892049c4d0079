/**
 * Anthropic Messages content blocks (`@anthropic-ai/sdk`: `ImageBlockParam`,
 * `DocumentBlockParam` with `Base64ImageSource` / `Base64PDFSource`).
 *
 * - `{ type: "image" | "document", source: { type: "base64", media_type, data } }`: `data`
 *   removed, `sha256`/`size` added in `source`; a document's name is its `title`.
 * - A document with a `text` source (`PlainTextSource`) stays text; `url` and `file` sources are
 *   references.
 * @module
 */

import type { DigestMatch, NodeReader, PartMatch, Recognizer } from './recognizer.js';
import { hasString, isDigestAt, memberObject, memberString } from './recognizer.js';

const SOURCE = { holderPath: ['source'], field: 'data' } as const;

function blockSource<N>(part: N, reader: NodeReader<N>, type: string | undefined): N | undefined {
  if (type !== 'image' && type !== 'document') return undefined;
  const source = memberObject(reader, part, 'source');
  if (source === undefined || memberString(reader, source, 'type') !== 'base64') return undefined;
  return source;
}

export const anthropic: Recognizer = {
  convention: 'Anthropic Messages (@anthropic-ai/sdk ImageBlockParam, DocumentBlockParam)',
  types: ['image', 'document'],

  match<N>(part: N, reader: NodeReader<N>, type: string | undefined): PartMatch | undefined {
    const source = blockSource(part, reader, type);
    if (source === undefined || !hasString(reader, source, 'data')) return undefined;
    const image = type === 'image';
    return {
      ...SOURCE,
      form: image ? 'anthropic.image' : 'anthropic.document',
      encoding: 'base64',
      mediaType: memberString(reader, source, 'media_type'),
      modality: image ? 'image' : 'document',
      name: image ? undefined : memberString(reader, part, 'title'),
    };
  },

  matchDigest<N>(part: N, reader: NodeReader<N>, type: string | undefined): DigestMatch | undefined {
    const source = blockSource(part, reader, type);
    if (source === undefined || !isDigestAt(reader, part, SOURCE.holderPath, SOURCE.field)) return undefined;
    return {
      ...SOURCE,
      form: type === 'image' ? 'anthropic.image' : 'anthropic.document',
      restoreAs: 'base64',
      mediaType: memberString(reader, source, 'media_type'),
    };
  },
};
