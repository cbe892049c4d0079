/**
 * Building message parts at a site.
 * @module
 */

import type { MessageFile, MessagePart, RemoteReference } from '../message-types.js';
import { locationOf, type Site } from '../value/site.js';

/** A text part. */
export function textPart(text: string, site: Site, prefixOf?: MessageFile): MessagePart {
  return prefixOf === undefined
    ? { type: 'text', text, at: locationOf(site) }
    : { type: 'text', text, at: locationOf(site), prefixOf };
}

/** A reasoning part. */
export function reasoningPart(text: string, site: Site): MessagePart {
  return { type: 'reasoning', text, at: locationOf(site) };
}

/** A file part. */
export function filePart(file: MessageFile, site: Site): MessagePart {
  return { type: 'file', file, at: locationOf(site) };
}

/** A remote-reference part. */
export function remotePart(reference: RemoteReference, site: Site): MessagePart {
  return { type: 'remote', reference, at: locationOf(site) };
}

/** A part of a shape no format has, kept as the value it is. */
export function otherPart(value: unknown, site: Site): MessagePart {
  return { type: 'other', value, at: locationOf(site) };
}

/** A tool call part. */
export function toolCallPart(
  id: string | undefined,
  name: string,
  args: unknown,
  site: Site,
): Extract<MessagePart, { type: 'tool_call' }> {
  const part: Extract<MessagePart, { type: 'tool_call' }> = {
    type: 'tool_call',
    name,
    arguments: args,
    at: locationOf(site),
  };
  if (id !== undefined) part.id = id;
  return part;
}

/** A tool result part. */
export function toolResultPart(
  result: { id?: string | undefined; name?: string | undefined; parts: MessagePart[]; isError?: boolean },
  site: Site,
): MessagePart {
  const part: Extract<MessagePart, { type: 'tool_result' }> = {
    type: 'tool_result',
    parts: result.parts,
    at: locationOf(site),
  };
  if (result.id !== undefined) part.id = result.id;
  if (result.name !== undefined) part.name = result.name;
  if (result.isError !== undefined) part.isError = result.isError;
  return part;
}
