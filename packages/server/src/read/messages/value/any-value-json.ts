/**
 * OTLP `AnyValue` (the stored JSON encoding) as a plain JSON value, for reading structured log
 * bodies and attribute values: integers as numbers when exact (else their decimal text), bytes as
 * {@link BytesValue}, key-value lists as objects (the first of repeated keys wins).
 * @module
 */

import type { AnyValue } from '../../../otlp/model.js';
import { BytesValue } from './bytes-value.js';

/** Levels of arrays and key-value lists converted; deeper values become `null`. */
export const MAX_ANY_VALUE_LEVELS = 64;

function setMember(object: Record<string, unknown>, key: string, value: unknown): void {
  if (Object.hasOwn(object, key)) return;
  // `__proto__` as an own member, as JSON.parse makes it, not the prototype setter.
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `value` as JSON; `undefined` for the empty value. Never throws. */
export function anyValueToJson(value: AnyValue | undefined | null, level = 0): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.stringValue === 'string') return v.stringValue;
  if (typeof v.boolValue === 'boolean') return v.boolValue;
  if (typeof v.intValue === 'string' || typeof v.intValue === 'number') {
    const n = Number(v.intValue);
    return Number.isSafeInteger(n) ? n : String(v.intValue);
  }
  if (typeof v.doubleValue === 'number') return v.doubleValue;
  if (typeof v.doubleValue === 'string') return v.doubleValue;
  if (typeof v.bytesValue === 'string') return new BytesValue(v.bytesValue);
  if (level >= MAX_ANY_VALUE_LEVELS) return null;
  const array = v.arrayValue as { values?: unknown } | undefined;
  if (typeof array === 'object' && array !== null) {
    const values = Array.isArray(array.values) ? array.values : [];
    return values.map((item) => anyValueToJson(item as AnyValue, level + 1) ?? null);
  }
  const list = v.kvlistValue as { values?: unknown } | undefined;
  if (typeof list === 'object' && list !== null) {
    const object: Record<string, unknown> = {};
    const values = Array.isArray(list.values) ? list.values : [];
    for (const entry of values) {
      const { key, value: item } = (entry ?? {}) as { key?: unknown; value?: unknown };
      if (typeof key === 'string')
        setMember(object, key, anyValueToJson(item as AnyValue, level + 1) ?? null);
    }
    return object;
  }
  return undefined;
}
