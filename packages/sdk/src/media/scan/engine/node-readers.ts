/**
 * The two {@link NodeReader}s: over positioned JSON text (what span attributes hold) and over
 * parsed JavaScript values (log bodies, values read back).
 * @module
 */

import { decodeStringNode, findMember } from '../json/json-string-text.js';
import { ARRAY, type JsonNode, type JsonTape, OBJECT, STRING } from '../json/json-tape.js';
import type { NodeReader } from '../recognizers/recognizer.js';

/** Strings longer than this are not read as names, types or formats. */
const MAX_SHORT_STRING = 1024;

/** Reads the nodes of one JSON text. */
export class TextNodeReader implements NodeReader<JsonNode> {
  private readonly tape: JsonTape;

  constructor(tape: JsonTape) {
    this.tape = tape;
  }

  member(node: JsonNode, key: string): JsonNode | undefined {
    const member = findMember(this.tape, node, key);
    return member < 0 ? undefined : member;
  }

  string(node: JsonNode): string | undefined {
    const tape = this.tape;
    if (tape.kind(node) !== STRING || tape.ends[node]! - tape.starts[node]! > MAX_SHORT_STRING + 2) {
      return undefined;
    }
    const value = decodeStringNode(tape, node);
    return value !== undefined && value.length <= MAX_SHORT_STRING ? value : undefined;
  }

  kind(node: JsonNode): 'object' | 'array' | 'string' | 'other' {
    const kind = this.tape.kind(node);
    if (kind === OBJECT) return 'object';
    if (kind === ARRAY) return 'array';
    if (kind === STRING) return 'string';
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
