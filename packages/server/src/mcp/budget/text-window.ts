/**
 * Windows of long text: the part of a string from a character offset that fits a number of
 * characters once written as a JSON string (quotes and escapes counted), never splitting a
 * surrogate pair.
 * @module
 */

/** Characters `code` (a UTF-16 code unit) takes in a JSON string. */
function escapedLength(code: number): number {
  if (code === 0x22 || code === 0x5c) return 2; // \" \\
  if (code < 0x20)
    return code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 2 : 6;
  return 1;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * The end (exclusive) of the longest window of `text` starting at `from` whose JSON string form
 * (with its two quotes) takes at most `room` characters. Never ends between the two halves of a
 * surrogate pair (a lone surrogate counts 6, as `JSON.stringify` writes it).
 */
export function windowEnd(text: string, from: number, room: number): number {
  let used = 2;
  let end = from;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    if (isHighSurrogate(code) && end + 1 < text.length) {
      const low = text.charCodeAt(end + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        if (used + 2 > room) break;
        used += 2;
        end += 2;
        continue;
      }
    }
    const cost = code >= 0xd800 && code <= 0xdfff ? 6 : escapedLength(code);
    if (used + cost > room) break;
    used += cost;
    end += 1;
  }
  return end;
}

/** JSON text length of `value` (`JSON.stringify`; 0 for `undefined`). */
export function jsonLength(value: unknown): number {
  return JSON.stringify(value)?.length ?? 0;
}
