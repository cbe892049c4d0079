/**
 * Reading and writing JSON string literals inside a larger text: decoding a string node, mapping
 * positions of the decoded contents back to the literal (to edit JSON that is itself encoded in a
 * JSON string), and escaping replacement text.
 * @module
 */

import { type JsonNode, type JsonTape, OBJECT } from './json-tape.js';

/** The decoded contents of `text.slice(start, end)`, a string literal with escapes. */
function decodeEscaped(text: string, start: number, end: number): string | undefined {
  try {
    return JSON.parse(text.slice(start, end)) as string;
  } catch {
    return undefined; // an invalid escape: the string is not read (left as recorded)
  }
}

/**
 * The decoded contents of string `node` of `tape`, or `undefined` when the literal is not valid
 * JSON (bad escape, raw control character).
 */
export function decodeStringNode(tape: JsonTape, node: JsonNode): string | undefined {
  const start = tape.starts[node]!;
  const end = tape.ends[node]!;
  if (!tape.escaped(node)) return tape.text.slice(start + 1, end - 1);
  return decodeEscaped(tape.text, start, end);
}

/** The key of object member `member`, decoded, or `undefined` when it is not valid. */
export function decodeKey(tape: JsonTape, member: JsonNode): string | undefined {
  const text = tape.text;
  const start = tape.keyStarts[member]!;
  const end = tape.keyEnds[member]!;
  for (let i = start + 1; i < end - 1; i++) {
    if (text.charCodeAt(i) === 92) return decodeEscaped(text, start, end);
  }
  return text.slice(start + 1, end - 1);
}

/** The first member of object `node` named `name` (compared without decoding), or -1. */
export function findMember(tape: JsonTape, node: JsonNode, name: string): JsonNode {
  if (tape.kind(node) !== OBJECT) return -1;
  const text = tape.text;
  const { nexts, keyStarts, keyEnds } = tape;
  const length = name.length + 2;
  const end = nexts[node]!;
  for (let member = node + 1; member < end; member = nexts[member]!) {
    const start = keyStarts[member]!;
    if (keyEnds[member]! - start === length && text.startsWith(name, start + 1)) return member;
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
