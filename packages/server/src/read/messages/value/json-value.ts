/**
 * Reading parsed JSON values (and log bodies converted from OTLP `AnyValue`) safely: own members
 * only, short strings for names and types.
 * @module
 */

import { BytesValue } from './bytes-value.js';

/** A JSON object as parsed (a plain or null-prototype object). */
export type JsonObject = Record<string, unknown>;

/** Strings longer than this are not read as names, types, roles or media types. */
const MAX_SHORT_STRING = 1024;

/** True for plain objects (maps of values): not arrays, bytes or class instances. */
export function isObject(value: unknown): value is JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof BytesValue) {
    return false;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Own member `key` of `value` when it is an object. */
export function member(value: unknown, key: string): unknown {
  return isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

/** True when `value` is an object with an own member `key` (of any value). */
export function hasMember(value: unknown, key: string): boolean {
  return isObject(value) && Object.hasOwn(value, key);
}

/** Own member `key` when it is a string of at most 1024 code units (a name, type or role). */
export function shortString(value: unknown, key: string): string | undefined {
  const item = member(value, key);
  return typeof item === 'string' && item.length <= MAX_SHORT_STRING ? item : undefined;
}

/** Own member `key` when it is a string of any length. */
export function stringMember(value: unknown, key: string): string | undefined {
  const item = member(value, key);
  return typeof item === 'string' ? item : undefined;
}

/** Own member `key` when it is an object. */
export function objectMember(value: unknown, key: string): JsonObject | undefined {
  const item = member(value, key);
  return isObject(item) ? item : undefined;
}

/** Own member `key` when it is an array. */
export function arrayMember(value: unknown, key: string): unknown[] | undefined {
  const item = member(value, key);
  return Array.isArray(item) ? item : undefined;
}

/** The first of `keys` that `value` has as a short string. */
export function firstShortString(value: unknown, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const item = shortString(value, key);
    if (item !== undefined) return item;
  }
  return undefined;
}
