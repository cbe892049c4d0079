/**
 * GenAI semantic-convention message parts (OpenTelemetry semantic conventions for generative AI,
 * `gen-ai-input-messages.json` / `gen-ai-output-messages.json` schemas: `BlobPart`, `UriPart`,
 * `FilePart`).
 *
 * - `{ type: "blob", mime_type?, modality, content }`: `content` is base64 (or, for a textual
 *   `mime_type`, the text itself). Digest form: `content` removed, `sha256` and `size` added,
 *   which is exactly the spec's digest-form part; text kept as a prefix stays in `content`.
 * - `{ type: "uri", uri }` and `{ type: "file", file_id }` are references: never read, even when
 *   the `uri` is a data: URL.
 * @module
 */

import type { DigestMatch, NodeReader, PartMatch, Recognizer } from './recognizer.js';
import { hasString, isDigestAt, memberString, modalityName } from './recognizer.js';

const BLOB = { holderPath: [], field: 'content' } as const;

export const genAiParts: Recognizer = {
  convention: 'GenAI semantic conventions: BlobPart, UriPart, FilePart (gen-ai-input-messages.json)',
  types: ['blob', 'uri'],

  match<N>(part: N, reader: NodeReader<N>, type: string | undefined): PartMatch | undefined {
    if (type !== 'blob' || reader.member(part, 'content') === undefined) {
      return undefined;
    }
    return {
      ...BLOB,
      form: 'genai.blob',
      encoding: 'blob-content',
      mediaType: memberString(reader, part, 'mime_type'),
      modality: modalityName(memberString(reader, part, 'modality')),
      name: memberString(reader, part, 'name'),
    };
  },

  matchDigest<N>(part: N, reader: NodeReader<N>, type: string | undefined): DigestMatch | undefined {
    if (type !== 'blob' || !isDigestAt(reader, part, [], 'content', true)) {
      return undefined;
    }
    return {
      ...BLOB,
      form: 'genai.blob',
      restoreAs: 'base64',
      mediaType: memberString(reader, part, 'mime_type'),
      keepsPrefix: hasString(reader, part, 'content'),
    };
  },

  referenceMembers<N>(
    _part: N,
    _reader: NodeReader<N>,
    type: string | undefined,
  ): readonly string[] | undefined {
    return type === 'uri' ? ['uri'] : undefined;
  },
};
