/**
 * What a tool returned, as parts: an MCP `CallToolResult` (`content`, `isError`), an AI SDK tool
 * output (`{ type: "text" | "json" | "error-text" | "error-json" | "content", value }`), a list
 * of parts, a string. A string holding JSON is read as that JSON when it is one of these shapes
 * (a JSON-encoded tool result, with its files at pointers continuing inside the string);
 * otherwise it stays text, followed by the files its JSON holds.
 * @module
 */

import type { MessagePart } from '../message-types.js';
import { isObject, member, shortString } from '../value/json-value.js';
import { looksLikeJsonContainer, parseJsonText } from '../value/parse-json-text.js';
import { childSite, MAX_PART_DEPTH, type Site } from '../value/site.js';
import { otherPart, textPart } from './make-part.js';
import type { PartReader, ToolOutput } from './part-reader.js';

const AI_SDK_OUTPUTS = new Set(['text', 'json', 'error-text', 'error-json', 'content', 'execution-denied']);

/** True for an MCP `CallToolResult`: an object with a `content` list and no `type` or `role`. */
function isMcpResult(value: unknown): boolean {
  return (
    isObject(value) &&
    Array.isArray(value.content) &&
    !Object.hasOwn(value, 'type') &&
    !Object.hasOwn(value, 'role')
  );
}

/** True for an AI SDK tool output object. */
function isAiSdkOutput(value: unknown): boolean {
  const type = shortString(value, 'type');
  return type !== undefined && AI_SDK_OUTPUTS.has(type) && Object.hasOwn(value as object, 'value');
}

/** True for a list of typed part objects. */
function isPartList(value: unknown): boolean {
  return (
    Array.isArray(value) && value.length > 0 && value.every((item) => shortString(item, 'type') !== undefined)
  );
}

function aiSdkOutput(value: Record<string, unknown>, site: Site, reader: PartReader): ToolOutput {
  const type = shortString(value, 'type');
  const valueSite = childSite(site, 'value');
  const inner = value.value;
  const isError = type === 'error-text' || type === 'error-json' ? { isError: true } : {};
  if ((type === 'text' || type === 'error-text') && typeof inner === 'string') {
    return { parts: reader.text(inner, valueSite), ...isError };
  }
  if (type === 'content') return { parts: reader.content(inner, valueSite) };
  return { parts: [otherPart(inner, valueSite), ...reader.files(inner, valueSite)], ...isError };
}

/** Reads a tool's output (see the module). */
export function readToolOutput(value: unknown, site: Site, reader: PartReader): ToolOutput {
  if (value === undefined || value === null) return { parts: [] };
  if (site.depth > MAX_PART_DEPTH) return { parts: [otherPart(value, site)] };
  if (typeof value === 'string') {
    if (!looksLikeJsonContainer(value)) return { parts: reader.text(value, site) };
    const parsed = parseJsonText(value, site.depth);
    if (parsed.ok && (isMcpResult(parsed.value) || isAiSdkOutput(parsed.value) || isPartList(parsed.value))) {
      return readToolOutput(parsed.value, site, reader);
    }
    return { parts: reader.text(value, site) };
  }
  if (Array.isArray(value)) return { parts: reader.content(value, site) };
  if (isMcpResult(value)) {
    const content = reader.content(member(value, 'content'), childSite(site, 'content'));
    const parts: MessagePart[] = content;
    return member(value, 'isError') === true ? { parts, isError: true } : { parts };
  }
  if (isAiSdkOutput(value)) return aiSdkOutput(value as Record<string, unknown>, site, reader);
  if (typeof value === 'number' || typeof value === 'boolean')
    return { parts: [textPart(String(value), site)] };
  return { parts: reader.part(value, site) };
}
