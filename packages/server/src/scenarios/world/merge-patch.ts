/**
 * JSON Merge Patch (RFC 7386), the `merge` effect: an object patch sets its members on the target
 * object (recursively), a `null` member removes one, anything else replaces the target. Written
 * here to copy instead of mutate and to define rather than assign properties (see `json-pointer.ts`).
 * @module
 */
import type { JsonValue } from './json-pointer.js';

function isObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `target` with `patch` merged in; neither is changed. */
export function mergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isObject(patch)) return patch;
  const result: Record<string, JsonValue> = {};
  const define = (key: string, value: JsonValue) =>
    Object.defineProperty(result, key, { value, writable: true, enumerable: true, configurable: true });
  if (isObject(target)) for (const key of Object.keys(target)) define(key, target[key]!);
  for (const key of Object.keys(patch)) {
    const value = patch[key]!;
    if (value === null) delete result[key];
    else define(key, mergePatch(Object.hasOwn(result, key) ? result[key] : undefined, value));
  }
  return result;
}
