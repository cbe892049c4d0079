/**
 * A list of messages: message objects, and the items some formats list beside them (OpenAI
 * Responses `function_call`, `function_call_output`, `reasoning` items), each read as the message
 * it stands for. LangChain's nested lists (`BaseMessage[][]`) are read flat.
 * @module
 */

import type { NormalizedMessage } from '../message-types.js';
import type { PartReader } from '../parts/part-reader.js';
import { isObject, shortString } from '../value/json-value.js';
import { childSite, MAX_PART_DEPTH, type Site } from '../value/site.js';
import { type MessageOptions, readMessage } from './read-message.js';

/** Responses items that stand for a message of their own, with its role. */
const ITEM_ROLES: Readonly<Record<string, string>> = {
  function_call: 'assistant',
  custom_tool_call: 'assistant',
  reasoning: 'assistant',
  function_call_output: 'tool',
  custom_tool_call_output: 'tool',
};

/** True when `item` reads as a message: an object with a string `role`, or a Responses item. */
export function isMessageLike(item: unknown): boolean {
  if (!isObject(item)) return false;
  if (shortString(item, 'role') !== undefined) return true;
  const type = shortString(item, 'type');
  return type !== undefined && Object.hasOwn(ITEM_ROLES, type);
}

/** True when `value` is a list that holds messages (a nested list counts by its first item). */
export function isMessageList(value: unknown): value is unknown[] {
  if (!Array.isArray(value) || value.length === 0) return false;
  return value.some((item) => isMessageLike(item) || (Array.isArray(item) && item.some(isMessageLike)));
}

function readItem(
  item: unknown,
  site: Site,
  reader: PartReader,
  options: MessageOptions,
  messages: NormalizedMessage[],
): void {
  const type = shortString(item, 'type');
  const itemRole = type !== undefined && Object.hasOwn(ITEM_ROLES, type) ? ITEM_ROLES[type] : undefined;
  const message = itemRole === undefined ? readMessage(item, site, reader, options) : undefined;
  if (message !== undefined) {
    messages.push(message);
    return;
  }
  const role = itemRole ?? options.direction;
  messages.push({
    direction: options.direction,
    role,
    parts: reader.part(item, site),
    at: { attribute: site.attribute, pointer: site.pointer },
    convention: options.convention,
  });
}

/** The messages of the list `list` at `site`. */
export function readMessageList(
  list: readonly unknown[],
  site: Site,
  reader: PartReader,
  options: MessageOptions,
): NormalizedMessage[] {
  const messages: NormalizedMessage[] = [];
  if (site.depth >= MAX_PART_DEPTH) return messages;
  list.forEach((item, index) => {
    const itemSite = childSite(site, index);
    if (Array.isArray(item)) {
      if (itemSite.depth >= MAX_PART_DEPTH) return;
      item.forEach((nested, n) => {
        readItem(nested, childSite(itemSite, n), reader, options, messages);
      });
    } else {
      readItem(item, itemSite, reader, options, messages);
    }
  });
  return messages;
}
