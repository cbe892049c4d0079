/**
 * JSON columns: a value that may be omitted is stored as SQL `NULL` when omitted and as its JSON
 * text otherwise (so a present `null` is the text `null`).
 * @module
 */

/** The column text of an optional value: `null` (SQL) when omitted. */
export function toColumn(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

/** The value of an optional JSON column: `undefined` when SQL `NULL`. */
export function fromColumn(text: unknown): unknown {
  return text === null || text === undefined ? undefined : (JSON.parse(String(text)) as unknown);
}

/** Copies `value` to `target[name]` only when present, so omitted stays omitted in answers. */
export function withOptional<T extends object>(target: T, name: string, value: unknown): T {
  if (value !== undefined) (target as Record<string, unknown>)[name] = value;
  return target;
}
