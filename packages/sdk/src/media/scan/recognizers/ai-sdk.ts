/**
 * Vercel AI SDK v5–v7 message parts (`ai` `ImagePart`, `FilePart`; `@ai-sdk/provider`
 * `LanguageModelV2FilePart` as `ai.prompt.messages` records it; tool-result content parts
 * `media`, `image-data`, `file-data`).
 *
 * - `{ type: "image", image, mediaType? }` and `{ type: "file", data, mediaType, filename? }`: the
 *   bytes are bare base64, a data: URL, or a JSON array of byte numbers (how a `Uint8Array` is
 *   recorded by v7); the field is removed and `sha256`/`size` added. URLs are references.
 * - The v6 numbered-byte object (`{"0": 137, "1": 80, …}`, `JSON.stringify` of a `Uint8Array`)
 *   is not read as a file.
 * - Restored bytes are bare base64 when the part declares `mediaType`, otherwise a data: URL.
 * @module
 */

import type { DigestMatch, NodeReader, PartMatch, Recognizer } from './recognizer.js';
import { isDigestAt, memberString } from './recognizer.js';

const TOOL_OUTPUT_TYPES = new Set(['media', 'image-data', 'file-data']);

function mediaTypeOf<N>(reader: NodeReader<N>, part: N): string | undefined {
  return (
    memberString(reader, part, 'mediaType') ??
    memberString(reader, part, 'mimeType') ??
    memberString(reader, part, 'mime_type')
  );
}

function fieldOf(type: string | undefined): 'image' | 'data' | undefined {
  if (type === 'image') return 'image';
  if (type === 'file' || (type !== undefined && TOOL_OUTPUT_TYPES.has(type))) return 'data';
  return undefined;
}

export const aiSdk: Recognizer = {
  convention: 'Vercel AI SDK v5–v7 (ai ImagePart, FilePart; LanguageModelV2FilePart; tool output content)',
  types: ['image', 'file', 'media', 'image-data', 'file-data'],

  match<N>(part: N, reader: NodeReader<N>, type: string | undefined): PartMatch | undefined {
    const field = fieldOf(type);
    if (field === undefined) return undefined;
    const bytes = reader.member(part, field);
    if (bytes === undefined) return undefined;
    const kind = reader.kind(bytes);
    if (kind !== 'string' && kind !== 'array' && kind !== 'bytes') return undefined;
    return {
      form: `ai-sdk.${type}`,
      holderPath: [],
      field,
      encoding: 'binary',
      mediaType: mediaTypeOf(reader, part),
      modality: type === 'image' || type === 'image-data' ? 'image' : undefined,
      name: memberString(reader, part, 'filename'),
    };
  },

  matchDigest<N>(part: N, reader: NodeReader<N>, type: string | undefined): DigestMatch | undefined {
    const field = fieldOf(type);
    if (field === undefined || !isDigestAt(reader, part, [], field)) return undefined;
    const mediaType = mediaTypeOf(reader, part);
    return {
      form: `ai-sdk.${type}`,
      holderPath: [],
      field,
      restoreAs: mediaType === undefined ? 'data-url' : 'base64',
      mediaType,
    };
  },
};
