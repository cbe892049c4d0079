/**
 * The Vercel AI SDK's `ai.*` attributes (v3 to v7, and `@ai-sdk/otel`'s `LegacyOpenTelemetry`):
 * the input as `ai.prompt.messages` (the provider-level prompt of a `doGenerate`/`doStream` span)
 * or `ai.prompt` (`{ system, prompt, messages }` of the outer call); the output as one assistant
 * message from `ai.response.reasoning`, `ai.response.text` (or `ai.response.object`),
 * `ai.response.toolCalls` and `ai.response.files` (v3's `ai.result.*`).
 * @module
 */

import type { MessagePart } from '../message-types.js';
import { reasoningPart, toolCallPart } from '../parts/make-part.js';
import type { PartsReader } from '../parts/parts-reader.js';
import type { RecordValues } from '../record-values.js';
import { firstShortString, hasMember, member } from '../value/json-value.js';
import { childSite, rootSite } from '../value/site.js';
import type { MessageSource } from './message-source.js';
import { readAttributeMessages, readValue, textValueParts } from './read-attribute.js';

const CONVENTION = 'Vercel AI SDK';
const INPUT = { direction: 'input', convention: CONVENTION } as const;

export const aiSdkPromptMessages: MessageSource = {
  direction: 'input',
  read: (record, reader) => readAttributeMessages(record, reader, 'ai.prompt.messages', INPUT),
};

export const aiSdkPrompt: MessageSource = {
  direction: 'input',
  read: (record, reader) => readAttributeMessages(record, reader, 'ai.prompt', INPUT),
};

/** The tool calls of `ai.response.toolCalls`: `[{ toolCallId, toolName, input | args }]`. */
function toolCalls(record: RecordValues, name: string, reader: PartsReader): MessagePart[] | undefined {
  const value = readValue(record, name);
  if (value === undefined) return undefined;
  const site = rootSite(name);
  if (!value.parsed) return textValueParts(value.text, site, reader);
  if (!Array.isArray(value.value)) return reader.content(value.value, site);
  const parts: MessagePart[] = [];
  value.value.forEach((call, index) => {
    const callSite = childSite(site, index);
    const toolName = firstShortString(call, ['toolName']);
    if (toolName === undefined) {
      parts.push(...reader.part(call, callSite));
      return;
    }
    const key = hasMember(call, 'input') ? 'input' : 'args';
    const args = member(call, key);
    parts.push(toolCallPart(firstShortString(call, ['toolCallId']), toolName, args, callSite));
    parts.push(...reader.files(args, childSite(callSite, key)));
  });
  return parts;
}

export const aiSdkResponse: MessageSource = {
  direction: 'output',
  read(record, reader) {
    const parts: MessagePart[] = [];
    const attributes: string[] = [];
    const reasoning = record.value('ai.response.reasoning');
    if (reasoning?.kind === 'text') {
      parts.push(reasoningPart(reasoning.text, rootSite('ai.response.reasoning')));
      attributes.push('ai.response.reasoning');
    }
    for (const name of ['ai.response.text', 'ai.result.text', 'ai.response.object', 'ai.result.object']) {
      const value = readValue(record, name, true);
      if (value === undefined) continue;
      parts.push(
        ...(value.parsed
          ? reader.content(value.value, rootSite(name))
          : textValueParts(value.text, rootSite(name), reader, value.plain)),
      );
      attributes.push(name);
    }
    for (const name of ['ai.response.toolCalls', 'ai.result.toolCalls']) {
      const calls = toolCalls(record, name, reader);
      if (calls === undefined) continue;
      parts.push(...calls);
      attributes.push(name);
    }
    const files = readValue(record, 'ai.response.files');
    if (files !== undefined) {
      const site = rootSite('ai.response.files');
      parts.push(
        ...(files.parsed ? reader.content(files.value, site) : textValueParts(files.text, site, reader)),
      );
      attributes.push('ai.response.files');
    }
    if (attributes.length === 0) return undefined;
    return {
      tier: 'messages',
      messages: [
        {
          direction: 'output',
          role: 'assistant',
          parts,
          at: { attribute: attributes[0]!, pointer: '' },
          convention: CONVENTION,
        },
      ],
      attributes,
    };
  },
};
