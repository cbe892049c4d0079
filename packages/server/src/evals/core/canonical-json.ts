/**
 * Canonical JSON text: object keys sorted, no whitespace. Two bodies with the same meaning (keys in
 * another order, other spacing) give the same text, so idempotent replays compare meaning.
 * @module
 */

/** The canonical JSON text of a parsed JSON value. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .sort()
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}
