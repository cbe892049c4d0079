/**
 * One message object, whatever the format: a role, and parts from `parts` (GenAI, Gemini) or
 * `content` (a string, a part list or one part: OpenAI, Anthropic, Bedrock, the AI SDK, MCP), plus
 * the members some formats keep beside the content: OpenAI's `tool_calls` and legacy
 * `function_call`, an assistant message's `audio` (the message carries its digest), `refusal`,
 * `reasoning_content`; a `tool` message answering `tool_call_id` becomes one tool result.
 * @module
 */

import { digestMembers, readByteField } from '../files/byte-field.js';
import { digestFile } from '../files/message-file.js';
import { openAiAudioFormat } from '../formats/openai-chat-parts.js';
import { PCM16_CONTENT_TYPE } from '../media/pcm-content-type.js';
import type { MessagePart, NormalizedMessage } from '../message-types.js';
import { filePart, reasoningPart, textPart, toolCallPart, toolResultPart } from '../parts/make-part.js';
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
  stringMember,
} from '../value/json-value.js';
import { childSite, locationOf, type Site } from '../value/site.js';

/** How a message is read. */
export interface MessageOptions {
  direction: 'input' | 'output';
  convention: string;
  /** The role of a message that records none (a Gemini `Content` without `role`). */
  defaultRole?: string;
}

/** The tool calls of OpenAI's `tool_calls` (also LangChain's `{ id, name, args }`). */
function toolCalls(message: JsonObject, site: Site, reader: PartReader): MessagePart[] {
  const calls = arrayMember(message, 'tool_calls');
  if (calls === undefined) return [];
  const parts: MessagePart[] = [];
  const callsSite = childSite(site, 'tool_calls');
  calls.forEach((call, index) => {
    const callSite = childSite(callsSite, index);
    const fn = objectMember(call, 'function');
    const holder = fn ?? call;
    const name = shortString(holder, 'name');
    if (name === undefined) return;
    const key = hasMember(holder, 'arguments') ? 'arguments' : 'args';
    const args = member(holder, key);
    parts.push(toolCallPart(shortString(call, 'id'), name, args, callSite));
    parts.push(
      ...reader.files(args, childSite(fn === undefined ? callSite : childSite(callSite, 'function'), key)),
    );
  });
  return parts;
}

/** OpenAI's assistant `audio` (`ChatCompletionAudio`): a file keyed at the message, and its transcript. */
function assistantAudio(message: JsonObject, site: Site, reader: PartReader): MessagePart[] {
  const audio = objectMember(message, 'audio');
  if (audio === undefined) return [];
  const parts: MessagePart[] = [];
  const found = readByteField(
    message,
    site,
    {
      holderPath: ['audio'],
      field: 'data',
      encoding: 'base64',
      mediaType: openAiAudioFormat(shortString(audio, 'format')),
      fallbackMediaType: PCM16_CONTENT_TYPE,
    },
    reader.blobs,
  );
  if (found !== undefined) parts.push(found);
  else {
    // the digest on the message itself ("the message carries the digest")
    const digest = digestMembers(message);
    if (digest !== undefined && !hasMember(audio, 'data')) {
      parts.push(filePart(digestFile(site, digest.sha256, digest.size, {}, reader.blobs), site));
    }
  }
  const transcript = stringMember(audio, 'transcript');
  if (transcript !== undefined)
    parts.push(textPart(transcript, childSite(childSite(site, 'audio'), 'transcript')));
  return parts;
}

/** The message `value` at `site` is, or `undefined` when it is not a message object. */
export function readMessage(
  value: unknown,
  site: Site,
  reader: PartReader,
  options: MessageOptions,
): NormalizedMessage | undefined {
  if (!isObject(value)) return undefined;
  const role = shortString(value, 'role') ?? options.defaultRole;
  if (role === undefined) return undefined;
  const parts: MessagePart[] = [];
  const reasoning = stringMember(value, 'reasoning_content');
  if (reasoning !== undefined) parts.push(reasoningPart(reasoning, childSite(site, 'reasoning_content')));
  const toolCallId = shortString(value, 'tool_call_id');
  if (Array.isArray(value.parts)) {
    parts.push(...reader.content(value.parts, childSite(site, 'parts')));
  } else if (toolCallId !== undefined || (role === 'tool' && typeof value.content === 'string')) {
    const output = reader.toolOutput(value.content, childSite(site, 'content'));
    parts.push(toolResultPart({ id: toolCallId, name: shortString(value, 'name'), ...output }, site));
  } else if (hasMember(value, 'content')) {
    parts.push(...reader.content(value.content, childSite(site, 'content')));
  }
  const refusal = stringMember(value, 'refusal');
  if (refusal !== undefined) parts.push(textPart(refusal, childSite(site, 'refusal')));
  parts.push(...assistantAudio(value, site, reader));
  parts.push(...toolCalls(value, site, reader));
  const fn = objectMember(value, 'function_call');
  const fnName = shortString(fn, 'name');
  if (fnName !== undefined) {
    const args = member(fn, 'arguments');
    parts.push(toolCallPart(undefined, fnName, args, childSite(site, 'function_call')));
  }
  const message: NormalizedMessage = {
    direction: options.direction,
    role,
    parts,
    at: locationOf(site),
    convention: options.convention,
  };
  const name = shortString(value, 'name');
  if (name !== undefined) message.name = name;
  const finishReason = firstShortString(value, ['finish_reason', 'finishReason', 'stop_reason']);
  if (finishReason !== undefined) message.finishReason = finishReason;
  return message;
}
