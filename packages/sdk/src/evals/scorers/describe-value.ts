/**
 * How a bad argument is shown in a `TypeError` message: short literals as they are, anything
 * else by its kind only, so that messages never carry recorded content.
 * @module
 */

const MAX_SHOWN_STRING = 60;

/** A value as shown in messages: JSON for short strings, literals, else its kind. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') {
    if (value === '') return 'an empty string';
    return value.length <= MAX_SHOWN_STRING
      ? JSON.stringify(value)
      : `a string of ${value.length} characters`;
  }
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'boolean' || value === undefined || value === null) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
