/**
 * GenAI log events with structured bodies (open-telemetry/semantic-conventions `gen-ai-events.md`,
 * as opentelemetry-instrumentation-openai-v2 and others log them): `gen_ai.system.message`,
 * `gen_ai.user.message`, `gen_ai.assistant.message` (with `tool_calls`) and `gen_ai.tool.message`
 * (`id` of the call it answers) as input messages, their body `{ content, role? }`;
 * `gen_ai.choice` as an output message, its body `{ index, finish_reason, message }`. Files are
 * keyed `body#<pointer>`. (The inference-details record `recordMessages()` writes,
 * `gen_ai.client.inference.operation.details`, holds its messages in attributes, read as a span's.)
 * @module
 */

import { readMessage } from '../message-readers/read-message.js';
import type { NormalizedMessage } from '../message-types.js';
import { textPart, toolResultPart } from '../parts/make-part.js';
import type { PartsReader } from '../parts/parts-reader.js';
import { firstShortString, hasMember, isObject, member, shortString } from '../value/json-value.js';
import { childSite, locationOf, rootSite } from '../value/site.js';
import type { SourceRead } from './message-source.js';

const CONVENTION = 'GenAI semantic conventions';
export const BODY = 'body';

const ROLE_EVENTS: Readonly<Record<string, string>> = {
  'gen_ai.system.message': 'system',
  'gen_ai.user.message': 'user',
  'gen_ai.assistant.message': 'assistant',
  'gen_ai.tool.message': 'tool',
};

function messageRead(message: NormalizedMessage | undefined): SourceRead | undefined {
  return message === undefined ? undefined : { tier: 'messages', messages: [message], attributes: [BODY] };
}

/** The message event `eventName`'s body (as JSON) records, with its direction; `undefined` for other events. */
export function readEventBody(eventName: string, body: unknown, reader: PartsReader): SourceRead | undefined {
  const site = rootSite(BODY);
  const eventRole = ROLE_EVENTS[eventName];
  if (Object.hasOwn(ROLE_EVENTS, eventName) && eventRole !== undefined) {
    const options = { direction: 'input' as const, convention: CONVENTION, defaultRole: eventRole };
    if (typeof body === 'string') {
      return messageRead({
        direction: 'input',
        role: eventRole,
        parts: [textPart(body, site)],
        at: locationOf(site),
        convention: CONVENTION,
      });
    }
    if (!isObject(body)) return undefined;
    const role = shortString(body, 'role') ?? eventRole;
    if (role === 'tool' && !hasMember(body, 'tool_call_id')) {
      const output = reader.toolOutput(member(body, 'content'), childSite(site, 'content'));
      const part = toolResultPart({ id: firstShortString(body, ['id']), ...output }, site);
      return messageRead({
        direction: 'input',
        role,
        parts: [part],
        at: locationOf(site),
        convention: CONVENTION,
      });
    }
    return messageRead(readMessage(body, site, reader, options));
  }
  if (eventName === 'gen_ai.choice' && isObject(body)) {
    const message = readMessage(member(body, 'message') ?? {}, childSite(site, 'message'), reader, {
      direction: 'output',
      convention: CONVENTION,
      defaultRole: 'assistant',
    });
    const finishReason = shortString(body, 'finish_reason');
    if (message !== undefined && finishReason !== undefined) message.finishReason ??= finishReason;
    return messageRead(message);
  }
  return undefined;
}

/** True for the events whose bodies are read for messages as inputs. */
export function isInputEvent(eventName: string): boolean {
  return Object.hasOwn(ROLE_EVENTS, eventName);
}
