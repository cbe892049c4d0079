/**
 * Parsing recorded JSON text under the spec's rules for reading files ("Automatic capture of
 * files"): attribute JSON that nests past 32 levels, or holds an integer past 2^53, is kept as
 * text, and so is text longer than 8 Mi code units. A string holding JSON continues the nesting of
 * the value it sits in (`nestingUsed`).
 *
 * Written by hand because `JSON.parse` neither bounds nesting nor tells whether an integer lost
 * precision: one pass over the text checks both before it is parsed.
 * @module
 */

/** Deepest nesting of arrays and objects read. */
export const MAX_NESTING = 32;
/** Longest text parsed (code units). */
export const PARSE_LIMIT_UNITS = 8 * 1024 * 1024;

const TWO_POW_53 = '9007199254740992';

/** The outcome of {@link parseJsonText}. */
export type ParsedText = { ok: true; value: unknown } | { ok: false };

const NOT_JSON: ParsedText = { ok: false };

/** True when the integer digits `text.slice(start, end)` are past 2^53. */
function pastTwoPow53(text: string, start: number, end: number): boolean {
  const digits = end - start;
  return digits > 16 || (digits === 16 && text.slice(start, end) > TWO_POW_53);
}

/** The index of the quote closing the string opened at `open`, or -1 (strings are skipped in one search each). */
function stringEnd(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  while (end > 0) {
    let k = end - 1;
    while (text.charCodeAt(k) === 92) k--;
    if ((end - 1 - k) % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
  return -1;
}

/**
 * False when `text` nests deeper than `maxNesting` or holds an integer past 2^53 (strings and
 * their escapes skipped). Malformed text is left to `JSON.parse`.
 */
function withinRules(text: string, maxNesting: number): boolean {
  let nesting = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = stringEnd(text, i) + 1;
      if (i === 0) return true; // an unterminated string: JSON.parse refuses it
      continue;
    }
    if (c === 123 || c === 91) {
      if (++nesting > maxNesting) return false;
    } else if (c === 125 || c === 93) {
      nesting--;
    } else if ((c >= 48 && c <= 57) || c === 45) {
      let j = c === 45 ? i + 1 : i;
      const digitsStart = j;
      while (j < n && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
      const next = text.charCodeAt(j);
      const integer = next !== 46 && next !== 101 && next !== 69;
      if (integer && pastTwoPow53(text, digitsStart, j)) return false;
      // the rest of the number (fraction, exponent) holds no brackets or quotes
      while (j < n) {
        const d = text.charCodeAt(j);
        if ((d >= 48 && d <= 57) || d === 46 || d === 101 || d === 69 || d === 43 || d === 45) j++;
        else break;
      }
      i = j;
      continue;
    }
    i++;
  }
  return true;
}

/**
 * `text` parsed as one JSON value, or `{ ok: false }` when it is not JSON or the rules keep it as
 * text. Never throws.
 *
 * @param nestingUsed levels of nesting above `text` (the depth of the string holding it)
 */
export function parseJsonText(text: string, nestingUsed = 0): ParsedText {
  if (text.length === 0 || text.length > PARSE_LIMIT_UNITS) return NOT_JSON;
  const maxNesting = MAX_NESTING - nestingUsed;
  if (maxNesting < 0 || !withinRules(text, maxNesting)) return NOT_JSON;
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return NOT_JSON;
  }
}

/** True when `text` starts (after whitespace) like a JSON object or array. */
export function looksLikeJsonContainer(text: string): boolean {
  let i = 0;
  let c = text.charCodeAt(0);
  while (c === 32 || c === 9 || c === 10 || c === 13) c = text.charCodeAt(++i);
  return c === 123 || c === 91;
}
