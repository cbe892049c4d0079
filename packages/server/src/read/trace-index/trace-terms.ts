/**
 * The kinds of terms the trace index keeps per trace (see `trace-index-migration.ts`): exact
 * values a search names.
 * @module
 */

/** Term kinds, as stored. */
export const TERM = {
  service: 1,
  session: 2,
  user: 3,
  model: 4,
  /** A span name, by its `span_names` row ID. */
  spanName: 5,
  /** An attribute `key = value`: the value is `<key>\u0000<value as text>`. */
  attribute: 6,
} as const;

/** The longest attribute value (UTF-16 code units) kept as a term; longer values are not searchable. */
export const MAX_TERM_VALUE_LENGTH = 256;

/** Attribute terms kept per span; the first ones in the span's order. */
export const MAX_ATTRIBUTE_TERMS_PER_SPAN = 64;

/** The stored value of an attribute term. */
export function attributeTerm(key: string, value: string): string {
  return `${key}\u0000${value}`;
}
