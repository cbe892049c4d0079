/**
 * The positioned JSON tree the scanner reads: every object, array and string knows where it sits
 * in the text, so the scanner can replace exactly those characters and keep the rest byte for
 * byte. String contents are not copied; numbers and literals carry no positions (nothing the
 * scanner edits is a number).
 * @module
 */

/** Kinds of {@link JsonNode}. */
export const OBJECT = 0;
export const ARRAY = 1;
export const STRING = 2;
export const NUMBER = 3;
export const LITERAL = 4;

/** One value of a JSON text, by position. */
export class JsonNode {
  /** {@link OBJECT}, {@link ARRAY}, {@link STRING}, {@link NUMBER} or {@link LITERAL}. */
  readonly kind: number;
  /** Index of the first character (`{`, `[`, `"`); -1 for numbers and literals. */
  readonly start: number;
  /** Index just after the last character (`}`, `]`, closing `"`); -1 for numbers and literals. */
  readonly end: number;
  /** Strings: the contents hold at least one backslash escape. */
  readonly escaped: boolean;
  /**
   * Objects: for member i, `keys[2i]` is the index of the key's opening quote and `keys[2i+1]`
   * the index just after its closing quote.
   */
  readonly keys: number[] | null;
  /** Objects: member values in order; arrays: items in order. */
  readonly children: JsonNode[] | null;

  constructor(
    kind: number,
    start: number,
    end: number,
    escaped: boolean,
    keys: number[] | null,
    children: JsonNode[] | null,
  ) {
    this.kind = kind;
    this.start = start;
    this.end = end;
    this.escaped = escaped;
    this.keys = keys;
    this.children = children;
  }
}

/** The node every number stands for. */
export const NUMBER_NODE = new JsonNode(NUMBER, -1, -1, false, null, null);
/** The node every `true`, `false` and `null` stands for. */
export const LITERAL_NODE = new JsonNode(LITERAL, -1, -1, false, null, null);
