/**
 * The scanner's fast pre-check: proves, without tokenizing, that a JSON text holds no file the
 * walk of `json-text-scan.ts` could find, so a value without files costs one pass of a regular
 * expression (a fraction of `JSON.parse`) instead of a tokenizing and a walk.
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

import { RECOGNIZED_TYPES, UNTYPED_PART_KEYS } from '../recognizers/all-recognizers.js';

/**
 * The words that open a part: every type value and untyped member name. They are ASCII letters,
 * `_` and `-` (a test checks it), which no escape but `\u00XX` writes.
 */
export const PART_WORDS: readonly string[] = [...new Set([...RECOGNIZED_TYPES, ...UNTYPED_PART_KEYS])];

/**
 * What makes a text "maybe": a part word right after `"` and right before `"` or `\`; `data:` in
 * any case right after `"`; or `\u00` followed by `0`–`7`. One regular expression, compiled to
 * native code, reads long texts several times faster than a loop over their quotes.
 */
const MAYBE_FILE = new RegExp(`"(?:${PART_WORDS.join('|')})["\\\\]|"[dD][aA][tT][aA]:|\\\\u00[0-7]`);

/**
 * False only when the JSON text `text.slice(start, end)` (or the raw contents of a string literal
 * holding JSON) cannot hold a file the scanner's walk would find; see the module comment. It
 * says nothing about a whole value that is a data: URL, nor about the 1 MiB inline-value rule:
 * callers check those themselves.
 */
export function textMayHoldFiles(text: string, start = 0, end = text.length): boolean {
  return MAYBE_FILE.test(start === 0 && end === text.length ? text : text.slice(start, end));
}
