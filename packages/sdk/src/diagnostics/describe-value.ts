/**
 * How a bad argument or option is shown in a `TypeError` message: short literals as they are,
 * anything else by its kind only, so that messages never carry recorded content or a secret.
 * @module
 */

/** Strings up to this length (UTF-16 code units) are shown as they are, in JSON. */
const MAX_SHOWN_STRING = 80;

/**
 * A value as shown in messages: JSON for strings of at most 80 code units (a longer one by its
 * length in characters only), literals as written (`-0`, `12n`, `true`, `null`, `undefined`),
 * anything else by its kind (`an array`, `an object`, `a function`).
 *
 * @example
 * ```ts
 * throw new TypeError(`timeoutMillis must be an integer from 100 to 60000; got ${describeValue(value)}`);
 * ```
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') {
    if (value === '') return 'an empty string';
    return value.length <= MAX_SHOWN_STRING
      ? JSON.stringify(value)
      : `a string of ${countCodePoints(value)} characters`;
  }
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'boolean' || value === undefined || value === null) return String(value);
  return describeKind(value);
}

/**
 * The kind of a value, never the value itself: for arguments where a credential might be passed
 * by mistake (`a string`, `an empty string`, `a number`, `an array`, `an object`, `null`, …).
 */
export function describeKind(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (value === '') return 'an empty string';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Unicode characters (code points), as the spec counts "characters". */
function countCodePoints(value: string): number {
  let count = 0;
  for (const _character of value) count += 1;
  return count;
}
