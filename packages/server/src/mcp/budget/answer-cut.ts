/**
 * What an answer left out to stay in its budget, and the exact call that fetches it.
 * @module
 */
import { estimateTokens } from './answer-budget.js';

/** A tool call: the tool's name and its arguments, ready to be made as is. */
export interface NextCall {
  tool: string;
  arguments: Record<string, unknown>;
}

/**
 * A cut: a list shown up to item `from` (the items from `from` on are left out), or a value shown
 * up to character `from` (the rest is left out).
 */
export interface AnswerCut {
  /** `list`: items of a list were left out; `value`: the rest of a value's text was. */
  kind: 'list' | 'value';
  /** JSON pointer (RFC 6901), in the whole answer, of the list or value that was cut. */
  at: string;
  /** The first item (of a list) or character (of a value) left out. */
  from: number;
  /** Items left out (1 for the rest of a value). */
  items: number;
  /** Characters left out (JSON text of the items; the rest of a value's text or its UTF-8 bytes). */
  characters: number;
  /** `characters` as estimated tokens. */
  tokens: number;
  /** The call that fetches what was left out. */
  next: NextCall;
}

/** A cut of list `at` from item `from` on: `items` items of `characters` characters, fetched by `next`. */
export function listCut(
  at: string,
  from: number,
  items: number,
  characters: number,
  next: NextCall,
): AnswerCut {
  return { kind: 'list', at, from, items, characters, tokens: estimateTokens(characters), next };
}

/** A cut of value `at` from character `from` on: `characters` more, fetched by `next`. */
export function valueCut(at: string, from: number, characters: number, next: NextCall): AnswerCut {
  return { kind: 'value', at, from, items: 1, characters, tokens: estimateTokens(characters), next };
}

/** The JSON pointer of `path` (RFC 6901 escaping). */
export function jsonPointer(path: readonly (string | number)[]): string {
  return path.map((part) => `/${String(part).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
