/**
 * Gemini content parts (`@google/genai`: `Part.inlineData` / `Blob`; the REST API's snake-case
 * `inline_data` with `mime_type`, as the Python SDK and raw requests record it).
 *
 * - `{ inlineData: { mimeType, data, displayName? } }`: `data` removed, `sha256`/`size` added in
 *   `inlineData`; the name is `displayName`.
 * - `fileData` (`fileUri`) is a reference.
 * @module
 */

import type { DigestMatch, NodeReader, PartMatch, Recognizer } from './recognizer.js';
import { hasString, isDigestAt, memberObject, memberString } from './recognizer.js';

const SPELLINGS = [
  { holder: 'inlineData', mimeType: 'mimeType', name: 'displayName' },
  { holder: 'inline_data', mimeType: 'mime_type', name: 'display_name' },
] as const;

export const gemini: Recognizer = {
  convention: 'Gemini (@google/genai Part.inlineData; REST inline_data)',
  types: [],
  untypedKeys: ['inlineData', 'inline_data'],

  match<N>(part: N, reader: NodeReader<N>): PartMatch | undefined {
    for (const spelling of SPELLINGS) {
      const blob = memberObject(reader, part, spelling.holder);
      if (blob === undefined || !hasString(reader, blob, 'data')) continue;
      return {
        form: 'gemini.inline_data',
        holderPath: [spelling.holder],
        field: 'data',
        encoding: 'base64',
        mediaType: memberString(reader, blob, spelling.mimeType),
        name: memberString(reader, blob, spelling.name),
      };
    }
    return undefined;
  },

  matchDigest<N>(part: N, reader: NodeReader<N>): DigestMatch | undefined {
    for (const spelling of SPELLINGS) {
      if (!isDigestAt(reader, part, [spelling.holder], 'data')) continue;
      const blob = memberObject(reader, part, spelling.holder)!;
      return {
        form: 'gemini.inline_data',
        holderPath: [spelling.holder],
        field: 'data',
        restoreAs: 'base64',
        mediaType: memberString(reader, blob, spelling.mimeType),
      };
    }
    return undefined;
  },
};
