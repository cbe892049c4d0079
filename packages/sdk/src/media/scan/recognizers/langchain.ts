/**
 * LangChain standard content blocks (`@langchain/core` messages: v0.3 data blocks
 * `{ type, source_type: "base64", data, mime_type }` and v1 blocks `{ type, base64, mime_type }`
 * for `image`, `audio`, `video` and `file`), as Langfuse and OpenInference record LangChain
 * messages.
 *
 * The byte field (`data` or `base64`) is removed and `sha256`/`size` added. The name is
 * `filename`, `name` or `title`, or the same in `metadata`.
 * @module
 */

import type { DigestMatch, NodeReader, PartMatch, Recognizer } from './recognizer.js';
import { hasString, isDigestAt, memberObject, memberString, modalityName } from './recognizer.js';

const TYPES = new Set(['image', 'audio', 'video', 'file']);

function mediaTypeOf<N>(reader: NodeReader<N>, part: N): string | undefined {
  return memberString(reader, part, 'mime_type') ?? memberString(reader, part, 'mimeType');
}

function nameOf<N>(reader: NodeReader<N>, part: N): string | undefined {
  for (const holder of [part, memberObject(reader, part, 'metadata')]) {
    if (holder === undefined) continue;
    for (const key of ['filename', 'name', 'title']) {
      const name = memberString(reader, holder, key);
      if (name !== undefined) return name;
    }
  }
  return undefined;
}

function byteField<N>(
  reader: NodeReader<N>,
  part: N,
  type: string | undefined,
): 'data' | 'base64' | undefined {
  if (type === undefined || !TYPES.has(type)) return undefined;
  if (memberString(reader, part, 'source_type') === 'base64') return 'data';
  if (memberString(reader, part, 'mime_type') !== undefined) return 'base64';
  return undefined;
}

export const langChain: Recognizer = {
  convention: 'LangChain standard content blocks (@langchain/core, v0.3 data blocks and v1 blocks)',
  types: ['image', 'audio', 'video', 'file'],

  match<N>(part: N, reader: NodeReader<N>, type: string | undefined): PartMatch | undefined {
    const field = byteField(reader, part, type);
    if (field === undefined || !hasString(reader, part, field)) return undefined;
    return {
      form: `langchain.${type}`,
      holderPath: [],
      field,
      encoding: 'base64',
      mediaType: mediaTypeOf(reader, part),
      modality: type === 'file' ? 'document' : modalityName(type),
      name: nameOf(reader, part),
    };
  },

  matchDigest<N>(part: N, reader: NodeReader<N>, type: string | undefined): DigestMatch | undefined {
    const field = byteField(reader, part, type);
    if (field === undefined || !isDigestAt(reader, part, [], field)) return undefined;
    return {
      form: `langchain.${type}`,
      holderPath: [],
      field,
      restoreAs: 'base64',
      mediaType: mediaTypeOf(reader, part),
    };
  },
};
