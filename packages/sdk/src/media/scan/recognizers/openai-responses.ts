/**
 * OpenAI Responses API input parts (`openai` package: `ResponseInputImage`, `ResponseInputFile`).
 *
 * - `{ type: "input_image", image_url: "data:…" }`: `image_url` removed, `sha256`/`size` added.
 * - `{ type: "input_file", file_data: "data:…", filename }`: `file_data` removed; the name is
 *   `filename`. `file_id` and `file_url` are references.
 * @module
 */

import type { DigestMatch, NodeReader, PartMatch, Recognizer } from './recognizer.js';
import { hasString, isDigestAt, memberString } from './recognizer.js';

export const openAiResponses: Recognizer = {
  convention: 'OpenAI Responses API (openai ResponseInputImage, ResponseInputFile)',
  types: ['input_image', 'input_file'],

  match<N>(part: N, reader: NodeReader<N>, type: string | undefined): PartMatch | undefined {
    if (type === 'input_image' && hasString(reader, part, 'image_url')) {
      return { form: 'openai.input_image', holderPath: [], field: 'image_url', encoding: 'data-url' };
    }
    if (type === 'input_file' && hasString(reader, part, 'file_data')) {
      return {
        form: 'openai.input_file',
        holderPath: [],
        field: 'file_data',
        encoding: 'base64',
        name: memberString(reader, part, 'filename'),
      };
    }
    return undefined;
  },

  matchDigest<N>(part: N, reader: NodeReader<N>, type: string | undefined): DigestMatch | undefined {
    if (type === 'input_image' && isDigestAt(reader, part, [], 'image_url')) {
      return { form: 'openai.input_image', holderPath: [], field: 'image_url', restoreAs: 'data-url' };
    }
    if (type === 'input_file' && isDigestAt(reader, part, [], 'file_data')) {
      return { form: 'openai.input_file', holderPath: [], field: 'file_data', restoreAs: 'data-url' };
    }
    return undefined;
  },
};
