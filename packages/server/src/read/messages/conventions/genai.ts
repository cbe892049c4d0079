/**
 * The GenAI semantic conventions' message attributes (open-telemetry/semantic-conventions
 * `gen-ai-spans.md`, `gen-ai-events.md`): `gen_ai.system_instructions` (a list of parts) and
 * `gen_ai.input.messages` as the input, `gen_ai.output.messages` as the output, also on the
 * inference-details log record `recordMessages()` writes
 * (`gen_ai.client.inference.operation.details`); the deprecated `gen_ai.prompt` /
 * `gen_ai.completion` values.
 * @module
 */

import type { NormalizedMessage } from '../message-types.js';
import { rootSite } from '../value/site.js';
import { combineReads, type MessageSource, type SourceRead } from './message-source.js';
import { readAttributeMessages, readValue, valueMessage } from './read-attribute.js';

const CONVENTION = 'GenAI semantic conventions';
const INPUT = { direction: 'input', convention: CONVENTION } as const;
const OUTPUT = { direction: 'output', convention: CONVENTION } as const;

const SYSTEM_INSTRUCTIONS = 'gen_ai.system_instructions';

export const genAiInput: MessageSource = {
  direction: 'input',
  read(record, reader) {
    let system: SourceRead | undefined;
    const value = readValue(record, SYSTEM_INSTRUCTIONS);
    if (value !== undefined) {
      const site = rootSite(SYSTEM_INSTRUCTIONS);
      const parts = value.parsed ? reader.content(value.value, site) : undefined;
      const message: NormalizedMessage =
        parts === undefined
          ? { ...valueMessage(SYSTEM_INSTRUCTIONS, value, reader, INPUT), role: 'system' }
          : {
              direction: 'input',
              role: 'system',
              parts,
              at: { attribute: SYSTEM_INSTRUCTIONS, pointer: '' },
              convention: CONVENTION,
            };
      system = {
        tier: value.parsed ? 'messages' : 'value',
        messages: [message],
        attributes: [SYSTEM_INSTRUCTIONS],
      };
    }
    return combineReads([system, readAttributeMessages(record, reader, 'gen_ai.input.messages', INPUT)]);
  },
};

export const genAiOutput: MessageSource = {
  direction: 'output',
  read: (record, reader) => readAttributeMessages(record, reader, 'gen_ai.output.messages', OUTPUT),
};

/** The deprecated `gen_ai.prompt` value (JSON of the prompt messages, or text). */
export const genAiLegacyPrompt: MessageSource = {
  direction: 'input',
  read: (record, reader) => readAttributeMessages(record, reader, 'gen_ai.prompt', INPUT),
};

/** The deprecated `gen_ai.completion` value. */
export const genAiLegacyCompletion: MessageSource = {
  direction: 'output',
  read: (record, reader) => readAttributeMessages(record, reader, 'gen_ai.completion', OUTPUT),
};
