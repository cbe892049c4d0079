/**
 * A position-tracking JSON tokenizer written for speed: structure is read with `charCodeAt`,
 * string ends are found with `indexOf`, no string contents are copied, and nodes go into the
 * typed arrays of a {@link JsonTape} (reused from call to call) rather than objects. It is strict about
 * structure (brackets, commas, colons, numbers, literals) and lenient inside strings: control
 * characters and escape sequences are checked only when a string is decoded (see
 * `json-string-text.ts`), which the scanner does for the few strings it reads.
 *
 * It also notes the spec's exemptions: nesting past {@link MAX_NESTING} levels stops tokenizing,
 * and an integer literal past 2^53 is reported so the caller can keep the value as text.
 * @module
 */

import { ARRAY, type JsonNode, JsonTape, LITERAL, NUMBER, OBJECT, STRING } from './json-tape.js';

/** Arrays and objects nested deeper than this are not read. */
export const MAX_NESTING = 32;
/** Strings longer than this (code units) without escapes may be read in a value too large to parse. */
export const LONG_STRING_UNITS = 16 * 1024;
/** The most code units of a value's JSON outside its long strings that the scanner tokenizes. */
export const PARSE_LIMIT_UNITS = 8 * 1024 * 1024;

/** Why a text was not tokenized. */
export type TokenizeFailure = 'malformed' | 'too-deep' | 'too-large';

/**
 * The outcome of {@link tokenizeJson}. The root of `tape` is node 0 (`ROOT`); hand the tape back
 * with {@link releaseTape} once read, so the next text reuses its arrays.
 */
export type TokenizeResult =
  | { ok: true; tape: JsonTape; bigInteger: boolean }
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

/**
 * The code unit at `pos`, or -1 past the end. Reading past the end with `charCodeAt` gives NaN,
 * which would make V8 recompile every inlined read of the tokenizer more slowly for good.
 */
function codeAt(text: string, pos: number): number {
  return pos < text.length ? text.charCodeAt(pos) : -1;
}

class Tokenizer {
  pos = 0;
  /** Index of the next backslash at or after the last string start, -1 for none, -2 unknown. */
  nextBackslash = -2;
  bigInteger = false;
  /** Code units inside long strings without escapes (not counted against the parse limit). */
  longPlainUnits = 0;

  readonly text: string;
  readonly tape: JsonTape;
  readonly maxNesting: number;
  readonly restLimit: number;

  constructor(text: string, tape: JsonTape, maxNesting: number, restLimit: number) {
    this.text = text;
    this.tape = tape;
    this.maxNesting = maxNesting;
    this.restLimit = restLimit;
  }

  /** Skips whitespace; returns the code unit reached (-1 at the end). */
  skipSpace(): number {
    const text = this.text;
    let pos = this.pos;
    let c = codeAt(text, pos);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = codeAt(text, ++pos);
    this.pos = pos;
    return c;
  }

  /** Reads one value; `keyStart`/`keyEnd` locate its key when it is an object member (else -1). */
  value(nesting: number, keyStart: number, keyEnd: number): JsonNode {
    if (this.pos - this.longPlainUnits > this.restLimit) throw TOO_LARGE;
    const c = this.skipSpace();
    let node: JsonNode;
    if (c === 34) node = this.string();
    else if (c === 123) node = this.object(nesting + 1);
    else if (c === 91) node = this.array(nesting + 1);
    else if (c === 45 || (c >= 48 && c <= 57)) node = this.number();
    else node = this.literal(c);
    // Read the arrays from the tape only now: they may have grown while the value was read.
    const tape = this.tape;
    tape.nexts[node] = tape.size;
    if (keyStart >= 0) {
      tape.keyStarts[node] = keyStart;
      tape.keyEnds[node] = keyEnd;
    }
    return node;
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

  /** Reads the string opening at `this.pos`. */
  string(): JsonNode {
    const start = this.pos;
    const node = this.tape.add(STRING, start);
    const q = this.stringEnd();
    let nb = this.nextBackslash;
    if (nb === -2 || (nb >= 0 && nb < start)) {
      nb = this.text.indexOf('\\', start);
      this.nextBackslash = nb;
    }
    if (nb >= 0 && nb < q) this.tape.markEscaped(node);
    else if (q - start - 1 > LONG_STRING_UNITS) this.longPlainUnits += q - start - 1;
    this.pos = q + 1;
    this.tape.ends[node] = q + 1;
    return node;
  }

  /** Reads the object opening at `this.pos`. */
  object(nesting: number): JsonNode {
    if (nesting > this.maxNesting) throw TOO_DEEP;
    const node = this.tape.add(OBJECT, this.pos);
    this.pos++;
    let c = this.skipSpace();
    if (c !== 125) {
      for (;;) {
        if (c !== 34) throw MALFORMED;
        const keyStart = this.pos;
        const q = this.stringEnd();
        this.pos = q + 1;
        if (this.skipSpace() !== 58) throw MALFORMED;
        this.pos++;
        this.value(nesting, keyStart, q + 1);
        c = this.skipSpace();
        if (c === 125) break;
        if (c !== 44) throw MALFORMED;
        this.pos++;
        c = this.skipSpace();
      }
    }
    this.pos++;
    this.tape.ends[node] = this.pos;
    return node;
  }

  /** Reads the array opening at `this.pos`. */
  array(nesting: number): JsonNode {
    if (nesting > this.maxNesting) throw TOO_DEEP;
    const node = this.tape.add(ARRAY, this.pos);
    this.pos++;
    let c = this.skipSpace();
    if (c !== 93) {
      for (;;) {
        this.value(nesting, -1, -1);
        c = this.skipSpace();
        if (c === 93) break;
        if (c !== 44) throw MALFORMED;
        this.pos++;
      }
    }
    this.pos++;
    this.tape.ends[node] = this.pos;
    return node;
  }

  /** Reads `true`, `false` or `null` (starting with code unit `c`) at `this.pos`. */
  literal(c: number): JsonNode {
    const text = this.text;
    const pos = this.pos;
    if ((c === 116 && text.startsWith('true', pos)) || (c === 110 && text.startsWith('null', pos))) {
      this.pos = pos + 4;
    } else if (c === 102 && text.startsWith('false', pos)) {
      this.pos = pos + 5;
    } else {
      throw MALFORMED;
    }
    const node = this.tape.add(LITERAL, pos);
    this.tape.ends[node] = this.pos;
    return node;
  }

  /** Reads the number at `this.pos`, noting integers past 2^53. */
  number(): JsonNode {
    const text = this.text;
    const start = this.pos;
    let pos = start;
    let c = codeAt(text, pos);
    if (c === 45) c = codeAt(text, ++pos);
    const digitsStart = pos;
    if (c === 48) {
      c = codeAt(text, ++pos);
    } else if (c >= 49 && c <= 57) {
      do c = codeAt(text, ++pos);
      while (c >= 48 && c <= 57);
    } else {
      throw MALFORMED;
    }
    const digits = pos - digitsStart;
    let integer = true;
    if (c === 46) {
      integer = false;
      c = codeAt(text, ++pos);
      if (!(c >= 48 && c <= 57)) throw MALFORMED;
      do c = codeAt(text, ++pos);
      while (c >= 48 && c <= 57);
    }
    if (c === 101 || c === 69) {
      integer = false;
      c = codeAt(text, ++pos);
      if (c === 43 || c === 45) c = codeAt(text, ++pos);
      if (!(c >= 48 && c <= 57)) throw MALFORMED;
      do c = codeAt(text, ++pos);
      while (c >= 48 && c <= 57);
    }
    if (integer && digits >= 16) {
      if (digits > 16 || text.slice(digitsStart, pos) > TWO_POW_53) this.bigInteger = true;
    }
    this.pos = pos;
    const node = this.tape.add(NUMBER, start);
    this.tape.ends[node] = pos;
    return node;
  }
}

/** Tapes handed back by {@link releaseTape}, for the next texts. */
const spareTapes: JsonTape[] = [];
/** Spare tapes kept at most, and the largest kept (nodes): a huge text's arrays are let go. */
const MAX_SPARE_TAPES = 4;
const MAX_SPARE_NODES = 64 * 1024;

/** Hands a tape of a {@link tokenizeJson} result back once read; it must not be used after. */
export function releaseTape(tape: JsonTape): void {
  tape.reset('');
  if (spareTapes.length < MAX_SPARE_TAPES && tape.capacity <= MAX_SPARE_NODES) spareTapes.push(tape);
}

/**
 * Tokenizes `text` as one JSON value (surrounding whitespace allowed). Throws only on a defect of
 * the tokenizer (what it cannot read is a failure reason).
 *
 * A text longer than {@link PARSE_LIMIT_UNITS} is read only while its code units outside long
 * strings (over {@link LONG_STRING_UNITS}, without escapes) stay within that limit.
 */
export function tokenizeJson(text: string, options: TokenizeOptions = {}): TokenizeResult {
  const maxNesting = MAX_NESTING - (options.nestingUsed ?? 0);
  const restLimit = text.length > PARSE_LIMIT_UNITS ? PARSE_LIMIT_UNITS : Number.POSITIVE_INFINITY;
  const tape = spareTapes.pop() ?? new JsonTape(Math.min(MAX_SPARE_NODES, 64 + (text.length >> 4)));
  tape.reset(text);
  const tokenizer = new Tokenizer(text, tape, maxNesting, restLimit);
  let failure: TokenizeFailure;
  try {
    tokenizer.value(0, -1, -1);
    tokenizer.skipSpace();
    if (tokenizer.pos !== text.length) failure = 'malformed';
    else if (text.length - tokenizer.longPlainUnits > restLimit) failure = 'too-large';
    else return { ok: true, tape, bigInteger: tokenizer.bigInteger };
  } catch (error) {
    if (error instanceof Stop) failure = error.reason;
    // A RangeError from a pathological input (for example a call stack limit): not readable.
    else if (error instanceof RangeError) failure = 'malformed';
    else {
      // A defect of the tokenizer: up to the export path's guard, which reports it.
      releaseTape(tape);
      throw error;
    }
  }
  releaseTape(tape);
  return { ok: false, reason: failure };
}
