/**
 * The messages a recorded request, response or message list holds, recognized by its shape:
 * OpenAI Chat Completions requests (`messages`) and responses (`choices[].message`), OpenAI
 * Responses requests (`input`, `instructions`) and responses (`output` items), Anthropic requests
 * (`system`, `messages`) and responses (a `message` object), Gemini requests (`contents`,
 * `systemInstruction`, `config.systemInstruction`) and responses (`candidates[].content`),
 * Bedrock Converse requests (`system`, `messages`) and responses (`output.message`), the AI SDK's
 * `ai.prompt` (`system`, `prompt`, `messages`), an MCP `CallToolResult`, a list of messages, or
 * one message.
 * @module
 */

import type { NormalizedMessage } from '../message-types.js';
import type { PartReader } from '../parts/part-reader.js';
import {
  arrayMember,
  firstShortString,
  hasMember,
  isObject,
  type JsonObject,
  member,
  objectMember,
  shortString,
} from '../value/json-value.js';
import { childSite, locationOf, type Site } from '../value/site.js';
import { type MessageOptions, readMessage } from './read-message.js';
import { isMessageList, readMessageList } from './read-message-list.js';

/** A message of `role` whose parts are the content `value` (a string, parts, a Gemini `Content`). */
function contentMessage(
  value: unknown,
  site: Site,
  reader: PartReader,
  options: MessageOptions,
  role: string,
): NormalizedMessage[] {
  if (value === undefined || value === null) return [];
  if (isMessageList(value)) return readMessageList(value, site, reader, options);
  if (isObject(value) && (hasMember(value, 'role') || Array.isArray(value.parts))) {
    const message = readMessage(value, site, reader, { ...options, defaultRole: role });
    if (message !== undefined) return [message];
  }
  const parts = reader.content(value, site);
  return parts.length === 0
    ? []
    : [{ direction: options.direction, role, parts, at: locationOf(site), convention: options.convention }];
}

/** The system instructions of a request: `system`, `instructions`, `systemInstruction` (also in `config`). */
function systemMessages(
  value: JsonObject,
  site: Site,
  reader: PartReader,
  options: MessageOptions,
): NormalizedMessage[] {
  for (const key of ['system', 'instructions', 'systemInstruction', 'system_instruction']) {
    if (hasMember(value, key))
      return contentMessage(value[key], childSite(site, key), reader, options, 'system');
  }
  const config = objectMember(value, 'config');
  for (const key of ['systemInstruction', 'system_instruction']) {
    if (hasMember(config, key)) {
      return contentMessage(
        member(config, key),
        childSite(childSite(site, 'config'), key),
        reader,
        options,
        'system',
      );
    }
  }
  return [];
}

/** The messages of a request member: a string (a user message) or a message list. */
function requestMember(
  content: unknown,
  site: Site,
  reader: PartReader,
  options: MessageOptions,
  defaultRole: string | undefined,
): NormalizedMessage[] | undefined {
  if (typeof content === 'string') return contentMessage(content, site, reader, options, 'user');
  const withRole = defaultRole === undefined ? options : { ...options, defaultRole };
  if (isMessageList(content)) return readMessageList(content, site, reader, withRole);
  if (defaultRole === undefined) return undefined;
  // Gemini `Content` without a role: `{ parts }`, alone or in a list
  if (Array.isArray(content) && content.some((item) => Array.isArray(member(item, 'parts')))) {
    return readMessageList(content, site, reader, withRole);
  }
  const message = Array.isArray(member(content, 'parts'))
    ? readMessage(content, site, reader, withRole)
    : undefined;
  return message === undefined ? undefined : [message];
}

/**
 * The messages of a request body (or the AI SDK's `ai.prompt`), or `undefined` when `value` is
 * none. An `input` member counts only beside a `model` or `instructions`, or as a message list.
 */
function requestMessages(
  value: JsonObject,
  site: Site,
  reader: PartReader,
  options: MessageOptions,
): NormalizedMessage[] | undefined {
  const found: NormalizedMessage[] = [];
  let recognized = false;
  for (const key of ['prompt', 'messages', 'input', 'contents']) {
    if (!hasMember(value, key)) continue;
    if (
      key === 'input' &&
      !hasMember(value, 'model') &&
      !hasMember(value, 'instructions') &&
      !isMessageList(value.input)
    ) {
      continue;
    }
    const read = requestMember(
      value[key],
      childSite(site, key),
      reader,
      options,
      key === 'contents' ? 'user' : undefined,
    );
    if (read === undefined) continue;
    recognized = true;
    found.push(...read);
  }
  return recognized ? [...systemMessages(value, site, reader, options), ...found] : undefined;
}

/** The messages of a response body, or `undefined` when `value` is none. */
function responseMessages(
  value: JsonObject,
  site: Site,
  reader: PartReader,
  options: MessageOptions,
): NormalizedMessage[] | undefined {
  const choices = arrayMember(value, 'choices');
  const candidates = arrayMember(value, 'candidates');
  const list = choices ?? candidates;
  if (list !== undefined) {
    const listSite = childSite(site, choices !== undefined ? 'choices' : 'candidates');
    const key = choices !== undefined ? 'message' : 'content';
    const messages: NormalizedMessage[] = [];
    list.forEach((item, index) => {
      const itemSite = childSite(listSite, index);
      const defaultRole = choices !== undefined ? 'assistant' : 'model';
      const inner = member(item, key);
      const message =
        inner === undefined && typeof member(item, 'text') === 'string'
          ? contentMessage(member(item, 'text'), childSite(itemSite, 'text'), reader, options, defaultRole)[0]
          : readMessage(inner, childSite(itemSite, key), reader, { ...options, defaultRole });
      if (message === undefined) return;
      const finishReason = firstShortString(item, ['finish_reason', 'finishReason']);
      if (finishReason !== undefined) message.finishReason ??= finishReason;
      messages.push(message);
    });
    return messages.length > 0 ? messages : undefined;
  }
  const output = member(value, 'output');
  if (Array.isArray(output)) {
    return readMessageList(output, childSite(site, 'output'), reader, {
      ...options,
      defaultRole: 'assistant',
    });
  }
  const message = objectMember(output, 'message');
  if (message !== undefined) {
    const read = readMessage(message, childSite(childSite(site, 'output'), 'message'), reader, options);
    if (read !== undefined) {
      const stopReason = shortString(value, 'stopReason');
      if (stopReason !== undefined) read.finishReason ??= stopReason;
      return [read];
    }
  }
  return undefined;
}

/**
 * The messages `value` (at `site`) holds, or `undefined` when it is in none of the message
 * formats (see the module).
 */
export function detectMessages(
  value: unknown,
  site: Site,
  reader: PartReader,
  options: MessageOptions,
): NormalizedMessage[] | undefined {
  if (isMessageList(value)) return readMessageList(value, site, reader, options);
  if (!isObject(value)) return undefined;
  if (hasMember(value, 'role')) {
    const message = readMessage(value, site, reader, options);
    return message === undefined ? undefined : [message];
  }
  const response = responseMessages(value, site, reader, options);
  if (response !== undefined) return response;
  const request = requestMessages(value, site, reader, options);
  if (request !== undefined) return request;
  if (Array.isArray(value.content) && !hasMember(value, 'type')) {
    // an MCP CallToolResult
    const output = reader.toolOutput(value, site);
    const result = { type: 'tool_result' as const, parts: output.parts, at: locationOf(site) };
    return [
      {
        direction: options.direction,
        role: 'tool',
        parts: [output.isError === true ? { ...result, isError: true } : result],
        at: locationOf(site),
        convention: options.convention,
      },
    ];
  }
  return undefined;
}
