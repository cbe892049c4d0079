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

/**
 * Normalizes one `AnyValue`. Absent or `null` values become the empty value `{}`. A value already
 * in the stored form (one known member, integers as strings) is returned as it is, not copied.
 */
export function normalizeAnyValue(value: unknown, depth = 0): AnyValue {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new InvalidRecordError('invalid attribute value');
  if (depth > MAX_ANY_VALUE_DEPTH) throw new InvalidRecordError('attribute value nested too deeply');
  const v = value as Record<string, unknown>;
  let canonical = true;
  let result: AnyValue | undefined;
  let members = 0;
  let readMember: string | undefined;
  for (const member in v) {
    const item = v[member];
    if (item === undefined || item === null) {
      canonical = false;
      continue;
    }
    members++;
    if (result !== undefined) {
      // Protobuf JSON allows one member of the oneof; the first one read wins.
      canonical = false;
      continue;
    }
    readMember = member;
    switch (member) {
      case 'stringValue':
        if (typeof item !== 'string') throw new InvalidRecordError('invalid attribute value');
        result = v as AnyValue;
        break;
      case 'boolValue':
        if (typeof item !== 'boolean') throw new InvalidRecordError('invalid attribute value');
        result = v as AnyValue;
        break;
      case 'intValue':
        if (typeof item === 'string' && INTEGER_TEXT.test(item)) result = v as AnyValue;
        else {
          result = { intValue: readInt(item) };
          canonical = false;
        }
        break;
      case 'doubleValue':
        if (typeof item === 'number' || item === 'NaN' || item === 'Infinity' || item === '-Infinity') {
          result = v as AnyValue;
        } else throw new InvalidRecordError('invalid attribute value');
        break;
      case 'bytesValue':
        if (typeof item !== 'string') throw new InvalidRecordError('invalid attribute value');
        result = v as AnyValue;
        break;
      case 'arrayValue': {
        const values = readValues(item);
        const normalized = normalizeList(values, (x) => normalizeAnyValue(x, depth + 1));
        if (normalized === values && (item as { values?: unknown }).values === values) result = v as AnyValue;
        else {
          result = { arrayValue: { values: normalized } };
          canonical = false;
        }
        break;
      }
      case 'kvlistValue': {
        const values = readValues(item);
        const normalized = normalizeKeyValues(values, depth + 1);
        if (normalized === values && (item as { values?: unknown }).values === values) result = v as AnyValue;
        else {
          result = { kvlistValue: { values: normalized } };
          canonical = false;
        }
        break;
      }
      default:
        // An unknown member (e.g. from a newer protocol version) is dropped.
        canonical = false;
        members--;
        readMember = undefined;
    }
  }
  if (result === undefined) return members === 0 && canonical ? (v as AnyValue) : {};
  if (canonical || result !== v) return result;
  // `v` holds more than the member that was read: keep only that member.
  return { [readMember!]: v[readMember!] } as AnyValue;
}

function readValues(container: unknown): unknown[] {
  if (typeof container !== 'object' || container === null)
    throw new InvalidRecordError('invalid attribute value');
  const values = (container as { values?: unknown }).values;
  if (values === undefined || values === null) return [];
  if (!Array.isArray(values)) throw new InvalidRecordError('invalid attribute value');
  return values;
}

/** Maps `list` through `normalize`, returning `list` itself when no item changed. */
function normalizeList<T>(list: unknown[], normalize: (item: unknown) => T): T[] {
  let out: T[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const item = normalize(list[i]);
    if (out === undefined && item !== list[i]) out = list.slice(0, i) as T[];
    if (out !== undefined) out.push(item);
  }
  return out ?? (list as T[]);
}

/** Normalizes a list of `KeyValue`; an absent list is empty. Returns `list` itself when canonical. */
export function normalizeKeyValues(list: unknown, depth = 0): KeyValue[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new InvalidRecordError('invalid attributes');
  return normalizeList(list, (entry): KeyValue => {
    const kv = entry as { key?: unknown; value?: unknown } | null;
    if (typeof kv !== 'object' || kv === null || Array.isArray(kv))
      throw new InvalidRecordError('invalid attributes');
    // proto3 (and its JSON mapping) omits an empty string, so an absent key is the key "".
    const key = kv.key ?? '';
    if (typeof key !== 'string') throw new InvalidRecordError('invalid attributes');
    const value = normalizeAnyValue(kv.value, depth);
    let extra = false;
    for (const field in kv) if (field !== 'key' && field !== 'value') extra = true;
    return key === kv.key && value === kv.value && !extra ? (kv as KeyValue) : { key, value };
  });
}

/** The latest time the store holds: SQLite integers are signed 64-bit (about the year 2262). */
const MAX_TIMESTAMP = 2n ** 63n - 1n;
const MAX_TIMESTAMP_TEXT = MAX_TIMESTAMP.toString();
const DIGITS = /^\d+$/;

/**
 * Reads an OTLP 64-bit nanosecond timestamp (string or number) as a decimal string. A time past
 * 2^63 - 1 ns, which OTLP's `fixed64` allows but the store cannot hold, refuses its record.
 */
export function readTimestamp(value: unknown): string {
  if (value === undefined || value === null || value === '') return '0';
  if (typeof value === 'string' && DIGITS.test(value)) {
    // Up to 18 digits always fits; 19 digits compare as text (same length); longer ones (leading
    // zeros) are compared as numbers.
    if (value.length < 19) return value;
    if (value.length === 19 ? value <= MAX_TIMESTAMP_TEXT : BigInt(value) <= MAX_TIMESTAMP) return value;
  } else if (typeof value === 'number' && Number.isInteger(value) && value >= 0) {
    const time = BigInt(value);
    if (time <= MAX_TIMESTAMP) return time.toString();
  }
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
