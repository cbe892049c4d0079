/**
 * The scanner's fast pre-check: proves, without tokenizing, that a JSON text holds no file the
 * walk of `json-text-scan.ts` could find, so values of plain text cost one pass of `indexOf`.
 *
 * Why it is sound. The walk finds a file only in three places, at any depth of JSON encoded in
 * JSON strings:
 * - an object whose `type` member is a string equal to one of `RECOGNIZED_TYPES`;
 * - an object without `type` with a member named one of `UNTYPED_PART_KEYS` (names are compared
 *   as written, never decoded);
 * - a string whose contents start with `data:` (any case), as written.
 *
 * At the text's own level each of these is a word right after a `"` (a type value or key is
 * also right before one); inside a JSON string (JSON encoded in JSON) the quotes are written
 * `\"`, which still ends in `"` and starts with `\`. Decoding a string maps every escape to one
 * code unit and keeps every other code unit as it is, so the letters of a word at any depth are
 * the same consecutive letters here, unless a `\uXXXX` escape wrote one of them. The only
 * escapes that write ASCII are `\u0000`–`\u007F`; an escape at a depth below writes `\\u00…`
 * (or deeper, more backslashes) here, which still holds `\u00` and the same hex digits. So a text
 * without `\u00` followed by `0`–`7`, and without any of the words above after a `"`, holds no
 * file. Anything else answers "maybe", and the caller runs the full scan.
 * @module
 */

import { startsWithDataScheme } from '../media/data-url.js';
import { RECOGNIZED_TYPES, UNTYPED_PART_KEYS } from '../recognizers/all-recognizers.js';

/**
 * The words that open a part: every type value and untyped member name. They are ASCII letters,
 * `_` and `-` (a test checks it), which no escape but `\u00XX` writes.
 */
export const PART_WORDS: readonly string[] = [...new Set([...RECOGNIZED_TYPES, ...UNTYPED_PART_KEYS])];

/** {@link PART_WORDS} by their first code unit. */
const WORDS_BY_FIRST_UNIT: (string[] | undefined)[] = Array.from({ length: 128 }, () => undefined);
for (const word of PART_WORDS) {
  const first = word.charCodeAt(0) & 127;
  const words = WORDS_BY_FIRST_UNIT[first] ?? [];
  words.push(word);
  WORDS_BY_FIRST_UNIT[first] = words;
}

/** `"` and `\`: what follows a whole word (its closing quote, or the `\` of an escaped one). */
function endsWord(unit: number): boolean {
  return unit === 34 || unit === 92;
}

/** True when `text.slice(start, end)` holds `\u00` followed by `0`–`7` (an escape writing ASCII). */
function hasAsciiEscape(text: string, start: number, end: number): boolean {
  let at = text.indexOf('\\u00', start);
  while (at >= 0 && at < end) {
    const digit = text.charCodeAt(at + 4);
    if (digit >= 48 && digit <= 55) return true;
    at = text.indexOf('\\u00', at + 4);
  }
  return false;
}

/**
 * False only when the JSON text `text.slice(start, end)` (or the raw contents of a string literal
 * holding JSON) cannot hold a file the scanner's walk would find; see the module comment. It
 * says nothing about a whole value that is a data: URL, nor about the 1 MiB inline-value rule:
 * callers check those themselves. It may read a few code units past `end` (only to say "maybe").
 */
export function textMayHoldFiles(text: string, start = 0, end = text.length): boolean {
  if (hasAsciiEscape(text, start, end)) return true;
  let quote = text.indexOf('"', start);
  while (quote >= 0 && quote < end) {
    const at = quote + 1;
    const first = text.charCodeAt(at);
    if (first < 128) {
      if ((first | 32) === 100 && startsWithDataScheme(text, at)) return true;
      const words = WORDS_BY_FIRST_UNIT[first];
      if (words !== undefined) {
        for (const word of words) {
          if (text.startsWith(word, at) && endsWord(text.charCodeAt(at + word.length))) return true;
        }
      }
    }
    quote = text.indexOf('"', at);
  }
  return false;
}
