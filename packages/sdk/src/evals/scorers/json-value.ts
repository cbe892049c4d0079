/**
 * JSON values as scorers see them: a check that a value is JSON, and structural equality.
 *
 * A JSON value here is `null`, a boolean, a finite number, a string, an array of JSON values, or a
 * plain object (prototype `Object.prototype` or `null`) whose values are JSON values. As in
 * `JSON.stringify`, an object property whose value is `undefined` counts as absent; everywhere else
 * `undefined` is not JSON.
 * @module
 */

/** Most arrays and objects nested in one another that {@link findNonJson} accepts. */
export const MAX_JSON_DEPTH = 512;

/**
 * Finds what keeps `value` from being a JSON value.
 *
 * @returns `undefined` when `value` is JSON, else a short phrase naming the kind of the offending
 *   part (for example `a bigint`, `a circular reference`), never its content.
 */
export function findNonJson(value: unknown): string | undefined {
  return findIn(value, new Set(), 0);
}

function findIn(value: unknown, ancestors: Set<object>, depth: number): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : 'a non-finite number';
    case 'object':
      break;
    case 'undefined':
      return 'undefined';
    default:
      return `a ${typeof value}`;
  }
  if (value === null) return undefined;
  if (depth >= MAX_JSON_DEPTH) return `nesting deeper than ${MAX_JSON_DEPTH} levels`;
  if (ancestors.has(value)) return 'a circular reference';
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index += 1) {
        if (!(index in value)) return 'an array with holes';
        const found = findIn(value[index], ancestors, depth + 1);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) {
      return `an object of class ${(value as { constructor?: { name?: unknown } }).constructor?.name || 'unknown'}`;
    }
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined) continue;
      const found = findIn(item, ancestors, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  } finally {
    ancestors.delete(value);
  }
}

/**
 * Structural equality of two JSON values (the shared comparison of `@svc-run/conventions`):
 * objects compare by their keys whatever the order (properties valued `undefined` count as absent),
 * arrays item by item in order, numbers by value, strings by code units.
 */
export { jsonEqual } from '@svc-run/conventions';
