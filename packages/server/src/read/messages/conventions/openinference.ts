/**
 * OpenInference's values (Arize-ai/openinference `spec/semantic_conventions.md`): `input.value`
 * and `output.value`, the request and response bodies (read in their provider's message format
 * when they are in one) or any value; declared `text/plain` by `input.mime_type` /
 * `output.mime_type`, they are text.
 * @module
 */

import { mediaTypeEssence } from '../media/media-type.js';
import type { MessageSource } from './message-source.js';
import { readAttributeMessages } from './read-attribute.js';

function valueSource(direction: 'input' | 'output'): MessageSource {
  return {
    direction,
    read: (record, reader) =>
      readAttributeMessages(
        record,
        reader,
        `${direction}.value`,
        { direction, convention: 'OpenInference' },
        mediaTypeEssence(record.string(`${direction}.mime_type`)) === 'text/plain',
      ),
  };
}

export const openInferenceInput = valueSource('input');
export const openInferenceOutput = valueSource('output');
