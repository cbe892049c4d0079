/**
 * OpenInference's flattened messages (Arize-ai/openinference `spec/semantic_conventions.md`,
 * `spec/multimodal_attributes.md`): `llm.input_messages.<n>.message.role`, `.name`, `.content`,
 * `.contents.<m>.message_content.type` / `.text` / `.image.image.url` (a data: URL, a web URL, or
 * in digest form the JSON text of a GenAI blob part keyed `<attribute>#`),
 * `.tool_calls.<m>.tool_call.id` / `.function.name` / `.function.arguments`, `.tool_call_id`;
 * the same under `llm.output_messages`.
 * @module
 */

import { readBytes } from '../files/byte-field.js';
import type { MessagePart, NormalizedMessage } from '../message-types.js';
import { textPart, toolCallPart, toolResultPart } from '../parts/make-part.js';
import type { PartsReader } from '../parts/parts-reader.js';
import type { RecordValues } from '../record-values.js';
import { looksLikeJsonContainer, parseJsonText } from '../value/parse-json-text.js';
import { rootSite } from '../value/site.js';
import { type IndexedItem, indexedItems, subItems } from './indexed-attributes.js';
import type { MessageSource } from './message-source.js';

const CONVENTION = 'OpenInference';

function text(record: RecordValues, name: string | undefined): string | undefined {
  const value = name === undefined ? undefined : record.value(name);
  return value?.kind === 'text' ? value.text : undefined;
}

/** An image URL attribute: a file (inline or digest form), a reference, or text. */
function imageUrl(record: RecordValues, name: string, reader: PartsReader): MessagePart[] {
  const value = text(record, name);
  if (value === undefined) return [];
  const site = rootSite(name);
  if (looksLikeJsonContainer(value)) {
    const parsed = parseJsonText(value);
    if (parsed.ok) return reader.part(parsed.value, site);
  }
  const found = readBytes(value, site, site, { encoding: 'data-url' }, reader.blobs, true);
  return found === undefined ? [textPart(value, site)] : [found];
}

function contentParts(record: RecordValues, item: IndexedItem, reader: PartsReader): MessagePart[] {
  const parts: MessagePart[] = [];
  const content = item.fields.get('message.content');
  const contentText = text(record, content);
  if (content !== undefined && contentText !== undefined)
    parts.push(...reader.text(contentText, rootSite(content)));
  for (const sub of subItems(item, 'message.contents')) {
    const textName = sub.fields.get('message_content.text');
    const value = text(record, textName);
    if (textName !== undefined && value !== undefined) parts.push(...reader.text(value, rootSite(textName)));
    const url = sub.fields.get('message_content.image.image.url');
    if (url !== undefined) parts.push(...imageUrl(record, url, reader));
  }
  for (const sub of subItems(item, 'message.tool_calls')) {
    const name = text(record, sub.fields.get('tool_call.function.name'));
    if (name === undefined) continue;
    const argsName = sub.fields.get('tool_call.function.arguments');
    const site = rootSite(argsName ?? sub.fields.get('tool_call.function.name')!);
    const args = text(record, argsName);
    parts.push(toolCallPart(text(record, sub.fields.get('tool_call.id')), name, args, site));
    if (args !== undefined) parts.push(...reader.files(args, site));
  }
  return parts;
}

function messagesSource(direction: 'input' | 'output'): MessageSource {
  const prefix = `llm.${direction}_messages.`;
  return {
    direction,
    read(record, reader) {
      const items = indexedItems(record.names, prefix);
      if (items.length === 0) return undefined;
      const messages: NormalizedMessage[] = items.map((item) => {
        let parts = contentParts(record, item, reader);
        const toolCallId = text(record, item.fields.get('message.tool_call_id'));
        if (toolCallId !== undefined)
          parts = [toolResultPart({ id: toolCallId, parts }, rootSite(`${item.prefix}.message`))];
        const message: NormalizedMessage = {
          direction,
          role: record.string(`${item.prefix}.message.role`) ?? direction,
          parts,
          at: { attribute: `${item.prefix}.message`, pointer: '' },
          convention: CONVENTION,
        };
        const name = record.string(`${item.prefix}.message.name`);
        if (name !== undefined) message.name = name;
        return message;
      });
      return { tier: 'messages', messages, attributes: items.flatMap((item) => [...item.fields.values()]) };
    },
  };
}

export const openInferenceInputMessages = messagesSource('input');
export const openInferenceOutputMessages = messagesSource('output');
