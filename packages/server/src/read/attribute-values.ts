/**
 * Reading stored OTLP values (`AnyValue`, in their JSON encoding) as plain values.
 * @module
 */
import type { AnyValue, KeyValue } from '../otlp/model.js';

/** How deep {@link plainValue} follows arrays and key-value lists; deeper values read as `null`. */
export const MAX_PLAIN_DEPTH = 64;

/**
 * The plain value of an `AnyValue`: a string, number (an `intValue` beyond 2^53 stays the decimal
 * string it was sent as, so nothing changes on the way out), boolean, `null` (the empty value),
 * array or object (a key-value list; a repeated key keeps its first value). `bytesValue` stays its
 * base64 text.
 */
export function plainValue(value: AnyValue | null | undefined, depth = 0): unknown {
  if (value === null || value === undefined || depth > MAX_PLAIN_DEPTH) return null;
  if ('stringValue' in value) return value.stringValue;
  if ('boolValue' in value) return value.boolValue;
  if ('intValue' in value) {
    const number = Number(value.intValue);
    return Number.isSafeInteger(number) ? number : value.intValue;
  }
  // A double may be sent as text (`"NaN"`, `"Infinity"`): kept as sent.
  if ('doubleValue' in value) return value.doubleValue;
  if ('bytesValue' in value) return value.bytesValue;
  if ('arrayValue' in value)
    return (value.arrayValue.values ?? []).map((item) => plainValue(item, depth + 1));
  if ('kvlistValue' in value) {
    const object: Record<string, unknown> = {};
    for (const { key, value: item } of value.kvlistValue.values ?? []) {
      if (!Object.hasOwn(object, key)) object[key] = plainValue(item, depth + 1);
    }
    return object;
  }
  return null;
}

/** The OTLP type name of a value: `string`, `bool`, `int`, `double`, `bytes`, `array`, `kvlist`, `empty`. */
export function valueType(value: AnyValue | null | undefined): string {
  if (value === null || value === undefined) return 'empty';
  if ('stringValue' in value) return 'string';
  if ('boolValue' in value) return 'bool';
  if ('intValue' in value) return 'int';
  if ('doubleValue' in value) return 'double';
  if ('bytesValue' in value) return 'bytes';
  if ('arrayValue' in value) return 'array';
  if ('kvlistValue' in value) return 'kvlist';
  return 'empty';
}

/** The attributes as a map from key to value; a repeated key keeps its first value. */
export function attributeMap(attributes: readonly KeyValue[]): Map<string, AnyValue> {
  const map = new Map<string, AnyValue>();
  for (const { key, value } of attributes) if (!map.has(key)) map.set(key, value);
  return map;
}

/** The string of a `stringValue`, else `undefined`. */
export function stringOf(value: AnyValue | undefined): string | undefined {
  return value !== undefined && 'stringValue' in value ? value.stringValue : undefined;
}

/**
 * A non-negative whole count from an `intValue`, a whole `doubleValue`, or a decimal string
 * (some instrumentations record token counts as text); else `undefined`.
 */
export function countOf(value: AnyValue | undefined): number | undefined {
  if (value === undefined) return undefined;
  let number: number;
  if ('intValue' in value) number = Number(value.intValue);
  else if ('doubleValue' in value) number = Number(value.doubleValue);
  else if ('stringValue' in value && /^\d{1,15}$/.test(value.stringValue)) number = Number(value.stringValue);
  else return undefined;
  return Number.isSafeInteger(number) && number >= 0 ? number : undefined;
}
