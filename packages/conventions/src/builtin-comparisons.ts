/**
 * The comparisons of the built-in scorers (exact match, string inclusion), kept once: the SDK's
 * `builtins.exactMatch()` and `builtins.includes()` score with them locally, and the server's
 * scenario output checks grade a sealed output with them, so both decide alike.
 * @module
 */

/**
 * Structural equality of two JSON values: objects compare by their keys whatever the order
 * (properties valued `undefined` count as absent), arrays item by item in order, numbers by value
 * (`0` equals `-0`), strings by code units (no trimming or normalization).
 */
export function jsonEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    return left.every((item, index) => jsonEqual(item, right[index]));
  }
  const leftRecord = left as Record<string, unknown>;
  const rightRecord = right as Record<string, unknown>;
  const leftKeys = definedKeys(leftRecord);
  if (leftKeys.length !== definedKeys(rightRecord).length) return false;
  return leftKeys.every(
    (key) => Object.hasOwn(rightRecord, key) && jsonEqual(leftRecord[key], rightRecord[key]),
  );
}

function definedKeys(record: Record<string, unknown>): string[] {
  return Object.keys(record).filter((key) => record[key] !== undefined);
}

/** The decision of the exact-match built-in. */
export interface ExactMatchDecision {
  equal: boolean;
  /** True when one side was a string read as JSON text to compare. */
  readAsJson: boolean;
}

/**
 * Whether `output` equals `expected`, as JSON values ({@link jsonEqual}). When one side is a
 * string and the other is not, the string is read as JSON text first, so the text `{"a":1}` equals
 * the object `{ a: 1 }` and the text `42` equals the number `42` (a model's output is often JSON
 * written as text); a string that is not JSON text differs.
 */
export function decideExactMatch(output: unknown, expected: unknown): ExactMatchDecision {
  if (jsonEqual(output, expected)) return { equal: true, readAsJson: false };
  if ((typeof output === 'string') === (typeof expected === 'string'))
    return { equal: false, readAsJson: false };
  const [text, other] = typeof output === 'string' ? [output, expected] : [expected as string, output];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { equal: false, readAsJson: false }; // text that is not JSON is compared as text
  }
  return { equal: jsonEqual(parsed, other), readAsJson: true };
}

const NON_ASCII = /\P{ASCII}/u;
/** Folds of the non-ASCII code points seen, up to {@link MAX_CACHED_FOLDS}. */
const folded = new Map<string, string>();
const MAX_CACHED_FOLDS = 4096;

/**
 * Folds the case of `text` one code point at a time (`toLowerCase`, `toUpperCase`, then
 * `toLowerCase` again, so that `ß`, `ẞ` and `SS`, `ς` and `Σ`, `ſ` and `S` fold alike; every case
 * variant of a code point folds to the same text). Because each code point folds on its own,
 * folding never depends on the neighbouring text (unlike `toLowerCase`, which writes a final sigma
 * differently): if `part` occurs in `text`, `foldCase(part)` occurs in `foldCase(text)`.
 */
export function foldCase(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  let result = '';
  for (const character of text) {
    let fold = folded.get(character);
    if (fold === undefined) {
      fold = character.toLowerCase().toUpperCase().toLowerCase();
      if (folded.size < MAX_CACHED_FOLDS) folded.set(character, fold);
    }
    result += fold;
  }
  return result;
}

/** The decision of the inclusion built-in: how many expected texts the output includes. */
export interface IncludesDecision {
  found: number;
  expected: number;
  passed: boolean;
}

/**
 * Whether the output text includes the expected text.
 *
 * - The output text is the output when it is a string, else its JSON text.
 * - The expected text is the expected value when it is a string. A nonempty array of strings
 *   expects each of them (all must be included). Any other value expects its JSON text (so the
 *   number `42` is found in `"The answer is 42"`).
 * - With `caseSensitive: false`, both sides are case-folded first ({@link foldCase}). Nothing else
 *   is normalized: whitespace and Unicode forms count.
 * - The empty string is included in every text.
 */
export function decideIncludes(output: unknown, expected: unknown, caseSensitive: boolean): IncludesDecision {
  const fold = caseSensitive ? (text: string) => text : foldCase;
  const haystack = fold(typeof output === 'string' ? output : JSON.stringify(output));
  const needles = expectedTexts(expected).map(fold);
  const found = needles.filter((needle) => haystack.includes(needle)).length;
  return { found, expected: needles.length, passed: found === needles.length };
}

function expectedTexts(expected: unknown): string[] {
  if (typeof expected === 'string') return [expected];
  if (Array.isArray(expected) && expected.length > 0 && expected.every((item) => typeof item === 'string')) {
    return expected;
  }
  return [JSON.stringify(expected)];
}
