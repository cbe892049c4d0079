/**
 * Reading and writing JSON string literals inside a larger text: decoding a string node, mapping
 * positions of the decoded contents back to the literal (to edit JSON that is itself encoded in a
 * JSON string), and escaping replacement text.
 * @module
 */

import type { JsonNode } from './json-node.js';

/**
 * The decoded contents of the string literal `text.slice(node.start, node.end)`, or `undefined`
 * when the literal is not valid JSON (bad escape, raw control character).
 */
export function decodeStringNode(text: string, node: JsonNode): string | undefined {
  if (!node.escaped) {
    return text.slice(node.start + 1, node.end - 1);
  }
  try {
    return JSON.parse(text.slice(node.start, node.end)) as string;
  } catch {
    return undefined;
  }
}

/** The key of member `index` of object `node`, decoded, or `undefined` when it is not valid. */
export function decodeKey(text: string, node: JsonNode, index: number): string | undefined {
  const keys = node.keys!;
  const start = keys[2 * index]!;
  const end = keys[2 * index + 1]!;
  const backslash = text.indexOf('\\', start);
  if (backslash < 0 || backslash >= end) return text.slice(start + 1, end - 1);
  try {
    return JSON.parse(text.slice(start, end)) as string;
  } catch {
    return undefined;
  }
}

/** Index of the member named `name` in object `node` (compared without decoding), or -1. */
export function findMember(text: string, node: JsonNode, name: string): number {
  const keys = node.keys!;
  const length = name.length + 2;
  for (let i = 0; i < keys.length; i += 2) {
    const start = keys[i]!;
    if (keys[i + 1]! - start === length && text.startsWith(name, start + 1)) return i >> 1;
  }
  return -1;
}

/** `value` escaped for the inside of a JSON string literal (without the quotes). */
export function escapeJsonStringContents(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

/**
 * Maps indexes of the decoded contents of a string literal to indexes in the literal's text.
 * `map` must be called with non-decreasing indexes; each escape sequence (`\n`, `\"`, `\uXXXX`)
 * decodes to exactly one UTF-16 code unit, so every decoded index has one position.
 */
export class DecodedPositionMap {
  private decoded = 0;
  private raw: number;
  private readonly text: string;
  private readonly contentEnd: number;

  /** `contentStart`/`contentEnd`: the literal's contents in `text` (inside the quotes). */
  constructor(text: string, contentStart: number, contentEnd: number) {
    this.text = text;
    this.raw = contentStart;
    this.contentEnd = contentEnd;
  }

  /** The index in the literal's text of the decoded code unit at `index` (or its end). */
  map(index: number): number {
    const text = this.text;
    while (this.decoded < index) {
      const backslash = text.indexOf('\\', this.raw);
      const plainEnd = backslash < 0 || backslash >= this.contentEnd ? this.contentEnd : backslash;
      const plain = plainEnd - this.raw;
      if (this.decoded + plain >= index) {
        this.raw += index - this.decoded;
        this.decoded = index;
        break;
      }
      this.decoded += plain + 1;
      this.raw = plainEnd + (text.charCodeAt(plainEnd + 1) === 117 ? 6 : 2);
    }
    return this.raw;
  }
}
