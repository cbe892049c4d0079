/**
 * OpenLLMetry's indexed messages (`@traceloop/ai-semantic-conventions`):
 * `gen_ai.prompt.<n>.role` / `.content` / `.tool_call_id` / `.tool_calls.<m>.name|id|arguments`
 * as the input, `gen_ai.completion.<n>.role` / `.content` / `.finish_reason` /
 * `.tool_calls.<m>.…` / `.function_call.name|arguments` as the output; the older names
 * `llm.prompts.<n>.…` and `llm.completions.<n>.…` too. A `.content` holding the JSON of a list of
 * parts is read as those parts (keyed `<attribute>#<pointer>`); any other content is text.
 * @module
 */

import type { MessagePart, NormalizedMessage } from '../message-types.js';
import { toolCallPart, toolResultPart } from '../parts/make-part.js';
import type { PartsReader } from '../parts/parts-reader.js';
import type { RecordValues } from '../record-values.js';
import { parseJsonText } from '../value/parse-json-text.js';
import { rootSite } from '../value/site.js';
import { type IndexedItem, indexedItems, subItems } from './indexed-attributes.js';
import type { MessageSource } from './message-source.js';
import { textValueParts } from './read-attribute.js';

const CONVENTION = 'OpenLLMetry';

function text(record: RecordValues, name: string | undefined): string | undefined {
  const value = name === undefined ? undefined : record.value(name);
  return value?.kind === 'text' ? value.text : undefined;
}

function contentParts(record: RecordValues, name: string, reader: PartsReader): MessagePart[] {
  const value = record.value(name);
  if (value === undefined) return [];
  const site = rootSite(name);
  if (value.kind === 'json') return reader.content(value.value, site);
  const trimmed = value.text.trimStart();
  if (trimmed.startsWith('[')) {
    const parsed = parseJsonText(value.text);
    if (parsed.ok && Array.isArray(parsed.value)) return reader.content(parsed.value, site);
  }
  return textValueParts(value.text, site, reader);
}

function toolCall(record: RecordValues, fields: IndexedItem, reader: PartsReader): MessagePart[] {
  const nameAttribute = fields.fields.get('name');
  const name = text(record, nameAttribute);
  if (name === undefined || nameAttribute === undefined) return [];
  const argsAttribute = fields.fields.get('arguments');
  const args = text(record, argsAttribute);
  const site = rootSite(argsAttribute ?? nameAttribute);
  return [
    toolCallPart(text(record, fields.fields.get('id')), name, args, site),
    ...(args === undefined ? [] : reader.files(args, site)),
  ];
}

function readItem(
  record: RecordValues,
  item: IndexedItem,
  direction: 'input' | 'output',
  reader: PartsReader,
) {
  let parts: MessagePart[] = [];
  const content = item.fields.get('content');
  if (content !== undefined) parts.push(...contentParts(record, content, reader));
  for (const call of subItems(item, 'tool_calls')) parts.push(...toolCall(record, call, reader));
  const functionCall = {
    index: 0,
    prefix: `${item.prefix}.function_call`,
    fields: new Map(
      [...item.fields]
        .filter(([field]) => field.startsWith('function_call.'))
        .map(([field, name]) => [field.slice('function_call.'.length), name]),
    ),
  };
  parts.push(...toolCall(record, functionCall, reader));
  const toolCallId = text(record, item.fields.get('tool_call_id'));
  if (toolCallId !== undefined) parts = [toolResultPart({ id: toolCallId, parts }, rootSite(item.prefix))];
  const message: NormalizedMessage = {
    direction,
    role: record.string(`${item.prefix}.role`) ?? direction,
    parts,
    at: { attribute: item.prefix, pointer: '' },
    convention: CONVENTION,
  };
  const finishReason = record.string(`${item.prefix}.finish_reason`);
  if (finishReason !== undefined) message.finishReason = finishReason;
  return message;
}

function indexedSource(prefix: string, direction: 'input' | 'output'): MessageSource {
  return {
    direction,
    read(record, reader) {
      const items = indexedItems(record.names, prefix);
      if (items.length === 0) return undefined;
      return {
        tier: 'messages',
        messages: items.map((item) => readItem(record, item, direction, reader)),
        attributes: items.flatMap((item) => [...item.fields.values()]),
      };
    },
  };
}

export const openLlmetryPrompts = indexedSource('gen_ai.prompt.', 'input');
export const openLlmetryCompletions = indexedSource('gen_ai.completion.', 'output');
export const openLlmetryLegacyPrompts = indexedSource('llm.prompts.', 'input');
export const openLlmetryLegacyCompletions = indexedSource('llm.completions.', 'output');
