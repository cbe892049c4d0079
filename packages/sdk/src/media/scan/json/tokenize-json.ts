/**
 * A position-tracking JSON tokenizer written for speed: structure is read with `charCodeAt`,
 * string ends are found with `indexOf`, and no string contents are copied. It is strict about
 * structure (brackets, commas, colons, numbers, literals) and lenient inside strings: control
 * characters and escape sequences are checked only when a string is decoded (see
 * `json-string-text.ts`), which the scanner does for the few strings it reads.
 *
 * It also notes the spec's exemptions: nesting past {@link MAX_NESTING} levels stops tokenizing,
 * and an integer literal past 2^53 is reported so the caller can keep the value as text.
 * @module
 */

import { ARRAY, JsonNode, LITERAL_NODE, NUMBER_NODE, OBJECT, STRING } from './json-node.js';

/** Arrays and objects nested deeper than this are not read. */
export const MAX_NESTING = 32;
/** Strings longer than this (code units) without escapes may be read in a value too large to parse. */
export const LONG_STRING_UNITS = 16 * 1024;
/** The most code units of a value's JSON outside its long strings that the scanner tokenizes. */
export const PARSE_LIMIT_UNITS = 8 * 1024 * 1024;

/** Why a text was not tokenized. */
export type TokenizeFailure = 'malformed' | 'too-deep' | 'too-large';

/** The outcome of {@link tokenizeJson}. */
export type TokenizeResult =
  | { ok: true; root: JsonNode; bigInteger: boolean }
  | { ok: false; reason: TokenizeFailure };

/** Options of {@link tokenizeJson}. */
export interface TokenizeOptions {
  /** Nesting already used by the text's context (JSON inside a JSON string); default 0. */
  nestingUsed?: number;
}

class Stop {
  readonly reason: TokenizeFailure;

  constructor(reason: TokenizeFailure) {
    this.reason = reason;
  }
}
const MALFORMED = new Stop('malformed');
const TOO_DEEP = new Stop('too-deep');
const TOO_LARGE = new Stop('too-large');

const TWO_POW_53 = '9007199254740992';

class Tokenizer {
  pos = 0;
  /** Index of the next backslash at or after the last string start, -1 for none, -2 unknown. */
  nextBackslash = -2;
  bigInteger = false;
  /** Code units inside long strings without escapes (not counted against the parse limit). */
  longPlainUnits = 0;

  readonly text: string;
  readonly maxNesting: number;
  readonly restLimit: number;

  constructor(text: string, maxNesting: number, restLimit: number) {
    this.text = text;
    this.maxNesting = maxNesting;
    this.restLimit = restLimit;
  }

  skipSpace(): number {
    const text = this.text;
    let pos = this.pos;
    let c = text.charCodeAt(pos);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++pos);
    this.pos = pos;
    return c;
  }

  value(nesting: number): JsonNode {
    if (this.pos - this.longPlainUnits > this.restLimit) throw TOO_LARGE;
    const c = this.skipSpace();
    if (c === 34) return this.string();
    if (c === 123) return this.object(nesting + 1);
    if (c === 91) return this.array(nesting + 1);
    if (c === 45 || (c >= 48 && c <= 57)) return this.number();
    const text = this.text;
    const pos = this.pos;
    if ((c === 116 && text.startsWith('true', pos)) || (c === 110 && text.startsWith('null', pos))) {
      this.pos = pos + 4;
      return LITERAL_NODE;
    }
    if (c === 102 && text.startsWith('false', pos)) {
      this.pos = pos + 5;
      return LITERAL_NODE;
    }
    throw MALFORMED;
  }

  /** Finds the closing quote of the string opening at `this.pos`; returns its index. */
  stringEnd(): number {
    const text = this.text;
    let q = text.indexOf('"', this.pos + 1);
    for (;;) {
      if (q < 0) throw MALFORMED;
      let b = q - 1;
      while (text.charCodeAt(b) === 92) b--;
      if (((q - 1 - b) & 1) === 0) return q;
      q = text.indexOf('"', q + 1);
    }
  }

  string(): JsonNode {
    const start = this.pos;
    const q = this.stringEnd();
    let nb = this.nextBackslash;
    if (nb === -2 || (nb >= 0 && nb < start)) {
      nb = this.text.indexOf('\\', start);
      this.nextBackslash = nb;
    }
    const escaped = nb >= 0 && nb < q;
    if (!escaped && q - start - 1 > LONG_STRING_UNITS) this.longPlainUnits += q - start - 1;
    this.pos = q + 1;
    return new JsonNode(STRING, start, q + 1, escaped, null, null);
  }

  object(nesting: number): JsonNode {
    if (nesting > this.maxNesting) throw TOO_DEEP;
    const start = this.pos;
    this.pos++;
    const keys: number[] = [];
    const children: JsonNode[] = [];
    let c = this.skipSpace();
    if (c === 125) {
      this.pos++;
      return new JsonNode(OBJECT, start, this.pos, false, keys, children);
    }
    for (;;) {
      if (c !== 34) throw MALFORMED;
      const keyStart = this.pos;
      const q = this.stringEnd();
      keys.push(keyStart, q + 1);
      this.pos = q + 1;
      if (this.skipSpace() !== 58) throw MALFORMED;
      this.pos++;
      children.push(this.value(nesting));
      c = this.skipSpace();
      if (c === 44) {
        this.pos++;
        c = this.skipSpace();
        continue;
      }
      if (c === 125) {
        this.pos++;
        return new JsonNode(OBJECT, start, this.pos, false, keys, children);
      }
      throw MALFORMED;
    }
  }

  array(nesting: number): JsonNode {
    if (nesting > this.maxNesting) throw TOO_DEEP;
    const start = this.pos;
    this.pos++;
    const children: JsonNode[] = [];
    let c = this.skipSpace();
    if (c === 93) {
      this.pos++;
      return new JsonNode(ARRAY, start, this.pos, false, null, children);
    }
    for (;;) {
      children.push(this.value(nesting));
      c = this.skipSpace();
      if (c === 44) {
        this.pos++;
        continue;
      }
      if (c === 93) {
        this.pos++;
        return new JsonNode(ARRAY, start, this.pos, false, null, children);
      }
      throw MALFORMED;
    }
  }

  number(): JsonNode {
    const text = this.text;
    let pos = this.pos;
    let c = text.charCodeAt(pos);
    const negative = c === 45;
    if (negative) c = text.charCodeAt(++pos);
    const digitsStart = pos;
    if (c === 48) {
      c = text.charCodeAt(++pos);
    } else if (c >= 49 && c <= 57) {
      do c = text.charCodeAt(++pos);
      while (c >= 48 && c <= 57);
    } else {
      throw MALFORMED;
    }
    const digits = pos - digitsStart;
    let integer = true;
    if (c === 46) {
      integer = false;
      c = text.charCodeAt(++pos);
      if (!(c >= 48 && c <= 57)) throw MALFORMED;
      do c = text.charCodeAt(++pos);
      while (c >= 48 && c <= 57);
    }
    if (c === 101 || c === 69) {
      integer = false;
      c = text.charCodeAt(++pos);
      if (c === 43 || c === 45) c = text.charCodeAt(++pos);
      if (!(c >= 48 && c <= 57)) throw MALFORMED;
      do c = text.charCodeAt(++pos);
      while (c >= 48 && c <= 57);
    }
    if (integer && digits >= 16) {
      if (digits > 16 || text.slice(digitsStart, pos) > TWO_POW_53) this.bigInteger = true;
    }
    this.pos = pos;
    return NUMBER_NODE;
  }
}

/**
 * Tokenizes `text` as one JSON value (surrounding whitespace allowed). Never throws.
 *
 * A text longer than {@link PARSE_LIMIT_UNITS} is read only while its code units outside long
 * strings (over {@link LONG_STRING_UNITS}, without escapes) stay within that limit.
 */
export function tokenizeJson(text: string, options: TokenizeOptions = {}): TokenizeResult {
  const maxNesting = MAX_NESTING - (options.nestingUsed ?? 0);
  const restLimit = text.length > PARSE_LIMIT_UNITS ? PARSE_LIMIT_UNITS : Number.POSITIVE_INFINITY;
  const tokenizer = new Tokenizer(text, maxNesting, restLimit);
  try {
    const root = tokenizer.value(0);
    tokenizer.skipSpace();
    if (tokenizer.pos !== text.length) return { ok: false, reason: 'malformed' };
    if (text.length - tokenizer.longPlainUnits > restLimit) return { ok: false, reason: 'too-large' };
    return { ok: true, root, bigInteger: tokenizer.bigInteger };
  } catch (error) {
    if (error instanceof Stop) return { ok: false, reason: error.reason };
    // A RangeError from a pathological input (for example a call stack limit): not readable.
    return { ok: false, reason: 'malformed' };
  }
}
