/**
 * The positioned JSON tree the scanner reads, held in typed arrays rather than one object per
 * node: a node is a number, nodes are in reading order (the root is 0, each container before its
 * children), and every node knows where it sits in the text, so the scanner can replace exactly
 * those characters and keep the rest byte for byte. String contents are not copied.
 *
 * The children of a container are `node + 1`, then each one's {@link JsonTape.next}, while below
 * the container's own `next`. Object members carry the position of their key.
 * @module
 */

/** Kinds of nodes ({@link JsonTape.kind}). */
export const OBJECT = 0;
export const ARRAY = 1;
export const STRING = 2;
export const NUMBER = 3;
export const LITERAL = 4;

/** A node of a {@link JsonTape}: its index. */
export type JsonNode = number;

/** The root node of every tape. */
export const ROOT: JsonNode = 0;

/** Flag in `kinds`: a string whose contents hold at least one backslash escape. */
const ESCAPED = 8;
const KIND_MASK = 7;

/** The nodes of one JSON text. */
export class JsonTape {
  /** The text the positions refer to. */
  text = '';
  /** Number of nodes. */
  size = 0;
  /** Per node: kind, with the {@link ESCAPED} flag. */
  kinds: Uint8Array;
  /** Per node: index of the first character (`{`, `[`, `"`, digit or letter). */
  starts: Int32Array;
  /** Per node: index just after the last character. */
  ends: Int32Array;
  /** Per node: the first node after its subtree (its next sibling, if it has one). */
  nexts: Int32Array;
  /** Per object member: index of its key's opening quote; -1 for other nodes. */
  keyStarts: Int32Array;
  /** Per object member: index just after its key's closing quote. */
  keyEnds: Int32Array;

  constructor(capacity: number) {
    this.kinds = new Uint8Array(capacity);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
    this.nexts = new Int32Array(capacity);
    this.keyStarts = new Int32Array(capacity);
    this.keyEnds = new Int32Array(capacity);
  }

  /** How many nodes fit before the arrays grow. */
  get capacity(): number {
    return this.kinds.length;
  }

  /** {@link OBJECT}, {@link ARRAY}, {@link STRING}, {@link NUMBER} or {@link LITERAL}. */
  kind(node: JsonNode): number {
    return this.kinds[node]! & KIND_MASK;
  }

  /** Strings: the contents hold at least one backslash escape. */
  escaped(node: JsonNode): boolean {
    return (this.kinds[node]! & ESCAPED) !== 0;
  }

  /** Number of items of an array or members of an object. */
  childCount(node: JsonNode): number {
    const end = this.nexts[node]!;
    let count = 0;
    for (let child = node + 1; child < end; child = this.nexts[child]!) count++;
    return count;
  }

  /** Empties the tape for `text` (the arrays are kept). */
  reset(text: string): void {
    this.text = text;
    this.size = 0;
  }

  /**
   * Appends a node starting at `start`, not (yet) a member; its end, next and key are set as it
   * is read. Returns it.
   */
  add(kind: number, start: number): JsonNode {
    if (this.size === this.kinds.length) this.grow();
    const node = this.size++;
    this.kinds[node] = kind;
    this.starts[node] = start;
    this.keyStarts[node] = -1;
    return node;
  }

  /** Marks string `node` as holding escapes. */
  markEscaped(node: JsonNode): void {
    this.kinds[node] = this.kinds[node]! | ESCAPED;
  }

  private grow(): void {
    const capacity = Math.max(64, this.kinds.length * 2);
    const kinds = new Uint8Array(capacity);
    kinds.set(this.kinds);
    this.kinds = kinds;
    this.starts = grown(this.starts, capacity);
    this.ends = grown(this.ends, capacity);
    this.nexts = grown(this.nexts, capacity);
    this.keyStarts = grown(this.keyStarts, capacity);
    this.keyEnds = grown(this.keyEnds, capacity);
  }
}

function grown(array: Int32Array, capacity: number): Int32Array {
  const copy = new Int32Array(capacity);
  copy.set(array);
  return copy;
}
