/**
 * Case folding for case-insensitive inclusion.
 * @module
 */

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
