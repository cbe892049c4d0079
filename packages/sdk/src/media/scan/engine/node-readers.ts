/**
 * The two {@link NodeReader}s: over positioned JSON text (what span attributes hold) and over
 * parsed JavaScript values (log bodies, values read back).
 * @module
 */

import { ARRAY, type JsonNode, OBJECT, STRING } from '../json/json-node.js';
import { decodeStringNode, findMember } from '../json/json-string-text.js';
import type { NodeReader } from '../recognizers/recognizer.js';

/** Strings longer than this are not read as names, types or formats. */
const MAX_SHORT_STRING = 1024;

/** Reads the nodes of one JSON text. */
export class TextNodeReader implements NodeReader<JsonNode> {
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  member(node: JsonNode, key: string): JsonNode | undefined {
    if (node.kind !== OBJECT) return undefined;
    const index = findMember(this.text, node, key);
    return index < 0 ? undefined : node.children![index];
  }

  string(node: JsonNode): string | undefined {
    if (node.kind !== STRING || node.end - node.start > MAX_SHORT_STRING + 2) return undefined;
    const value = decodeStringNode(this.text, node);
    return value !== undefined && value.length <= MAX_SHORT_STRING ? value : undefined;
  }

  kind(node: JsonNode): 'object' | 'array' | 'string' | 'other' {
    if (node.kind === OBJECT) return 'object';
    if (node.kind === ARRAY) return 'array';
    if (node.kind === STRING) return 'string';
    return 'other';
  }
}

/** True for objects that are maps of values (not arrays, byte arrays or class instances like Date). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Reads parsed JavaScript values. */
export const VALUE_READER: NodeReader<unknown> = {
  member(node: unknown, key: string): unknown {
    if (!isPlainObject(node) || !Object.hasOwn(node, key)) return undefined;
    return node[key];
  },
  string(node: unknown): string | undefined {
    return typeof node === 'string' && node.length <= MAX_SHORT_STRING ? node : undefined;
  },
  kind(node: unknown): 'object' | 'array' | 'string' | 'bytes' | 'other' {
    if (typeof node === 'string') return 'string';
    if (Array.isArray(node)) return 'array';
    if (node instanceof Uint8Array) return 'bytes';
    if (isPlainObject(node)) return 'object';
    return 'other';
  },
};
