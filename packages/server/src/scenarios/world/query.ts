/**
 * The `query` effect: the items of a collection (an array's items, an object's values) that
 * every filter accepts. A filter whose value refers to an argument the call left out is not
 * applied, so one tool can offer optional filters.
 * @module
 */
import { jsonEqual } from '@svc-run/conventions';
import { getAt, type JsonValue, parsePointer } from './json-pointer.js';
import { fillValue, type ToolArguments } from './templates.js';
import type { FilterOperator, QueryFilter } from './world-types.js';

function ordered(left: JsonValue | undefined, right: JsonValue): number | undefined {
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  if (typeof left === 'string' && typeof right === 'string') return left < right ? -1 : left > right ? 1 : 0;
  return undefined;
}

/** Whether an item's value `actual` (absent: `undefined`) passes `op` against `wanted`. */
export function passesFilter(actual: JsonValue | undefined, op: FilterOperator, wanted: JsonValue): boolean {
  switch (op) {
    case 'equals':
      return actual !== undefined && jsonEqual(actual, wanted);
    case 'not_equals':
      return actual === undefined || !jsonEqual(actual, wanted);
    case 'contains':
      if (typeof actual === 'string') return typeof wanted === 'string' && actual.includes(wanted);
      return Array.isArray(actual) && actual.some((item) => jsonEqual(item, wanted));
    default: {
      const order = ordered(actual, wanted);
      if (order === undefined) return false;
      return op === 'gt' ? order > 0 : op === 'gte' ? order >= 0 : op === 'lt' ? order < 0 : order <= 0;
    }
  }
}

/** The items of `collection` every applicable filter accepts, in order, at most `limit`. */
export function queryItems(
  collection: JsonValue[] | Record<string, JsonValue>,
  filters: readonly QueryFilter[],
  args: ToolArguments,
  limit: number,
): JsonValue[] {
  const applied = filters.flatMap((filter) => {
    const filled = fillValue(filter.value, args);
    return filled.ok ? [{ tokens: parsePointer(filter.path), op: filter.op, value: filled.value }] : [];
  });
  const items = Array.isArray(collection) ? collection : Object.values(collection);
  const found: JsonValue[] = [];
  for (const item of items) {
    if (applied.every((filter) => passesFilter(getAt(item, filter.tokens), filter.op, filter.value))) {
      found.push(item);
      if (found.length >= limit) break;
    }
  }
  return found;
}
