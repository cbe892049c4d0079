/**
 * Normalization of OTLP `AnyValue` and attribute lists, from OTLP JSON or from decoded protobuf,
 * into the stored typed form.
 * @module
 */
import { MAX_ANY_VALUE_DEPTH } from '../limits.js';
import type { AnyValue, KeyValue } from './model.js';

/** Thrown when a record holds a value that is not an OTLP `AnyValue`; the record is refused. */
export class InvalidRecordError extends Error {
  override readonly name = 'InvalidRecordError';
}

const INTEGER_TEXT = /^-?\d+$/;

function readInt(value: unknown): string {
  if (typeof value === 'string' && INTEGER_TEXT.test(value)) return value;
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  throw new InvalidRecordError('invalid attribute value');
}

/** Normalizes one `AnyValue`. Absent or `null` values become the empty value `{}`. */
export function normalizeAnyValue(value: unknown, depth = 0): AnyValue {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new InvalidRecordError('invalid attribute value');
  if (depth > MAX_ANY_VALUE_DEPTH) throw new InvalidRecordError('attribute value nested too deeply');
  const v = value as Record<string, unknown>;
  if (v.stringValue !== undefined && v.stringValue !== null) {
    if (typeof v.stringValue !== 'string') throw new InvalidRecordError('invalid attribute value');
    return { stringValue: v.stringValue };
  }
  if (v.boolValue !== undefined && v.boolValue !== null) {
    if (typeof v.boolValue !== 'boolean') throw new InvalidRecordError('invalid attribute value');
    return { boolValue: v.boolValue };
  }
  if (v.intValue !== undefined && v.intValue !== null) return { intValue: readInt(v.intValue) };
  if (v.doubleValue !== undefined && v.doubleValue !== null) {
    const d = v.doubleValue;
    if (typeof d === 'number' || d === 'NaN' || d === 'Infinity' || d === '-Infinity')
      return { doubleValue: d };
    throw new InvalidRecordError('invalid attribute value');
  }
  if (v.bytesValue !== undefined && v.bytesValue !== null) {
    if (typeof v.bytesValue !== 'string') throw new InvalidRecordError('invalid attribute value');
    return { bytesValue: v.bytesValue };
  }
  if (v.arrayValue !== undefined && v.arrayValue !== null) {
    const values = readValues(v.arrayValue);
    return { arrayValue: { values: values.map((item) => normalizeAnyValue(item, depth + 1)) } };
  }
  if (v.kvlistValue !== undefined && v.kvlistValue !== null) {
    return { kvlistValue: { values: normalizeKeyValues(readValues(v.kvlistValue), depth + 1) } };
  }
  return {};
}

function readValues(container: unknown): unknown[] {
  if (typeof container !== 'object' || container === null)
    throw new InvalidRecordError('invalid attribute value');
  const values = (container as { values?: unknown }).values;
  if (values === undefined || values === null) return [];
  if (!Array.isArray(values)) throw new InvalidRecordError('invalid attribute value');
  return values;
}

/** Normalizes a list of `KeyValue`; an absent list is empty. */
export function normalizeKeyValues(list: unknown, depth = 0): KeyValue[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new InvalidRecordError('invalid attributes');
  const out: KeyValue[] = new Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const kv = list[i] as { key?: unknown; value?: unknown } | null;
    // proto3 (and its JSON mapping) omits an empty string, so an absent key is the key "".
    const key = kv?.key ?? '';
    if (typeof kv !== 'object' || kv === null || Array.isArray(kv) || typeof key !== 'string') {
      throw new InvalidRecordError('invalid attributes');
    }
    out[i] = { key, value: normalizeAnyValue(kv.value, depth) };
  }
  return out;
}

/** Reads an OTLP unsigned 64-bit nanosecond timestamp (string or number) as a decimal string. */
export function readTimestamp(value: unknown): string {
  if (value === undefined || value === null || value === '') return '0';
  if (typeof value === 'string' && /^\d+$/.test(value)) return value;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return BigInt(value).toString();
  throw new InvalidRecordError('invalid timestamp');
}

/** Reads an optional non-negative 32-bit counter or flag field. */
export function readUint32(value: unknown, what: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xffffffff) return value;
  throw new InvalidRecordError(`invalid ${what}`);
}

/** Reads an optional string field. */
export function readString(value: unknown, what: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  throw new InvalidRecordError(`invalid ${what}`);
}

/** Reads an enum field sent as its number or, leniently, as its name from `names`. */
export function readEnum(value: unknown, names: readonly string[], what: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < names.length)
    return value;
  if (typeof value === 'string') {
    const index = names.indexOf(value);
    if (index >= 0) return index;
  }
  throw new InvalidRecordError(`invalid ${what}`);
}
