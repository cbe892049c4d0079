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

/**
 * Thrown for a 64-bit integer (an `intValue` or a timestamp) sent as a JSON number past 2^53:
 * `JSON.parse` may have rounded it. The record is refused, unless the request is read again
 * keeping those numbers' text (`parseKeepingIntegers`), as the decoder does.
 */
export class RoundedIntegerError extends InvalidRecordError {
  constructor() {
    super('integer past 2^53 sent as a JSON number could not be read exactly');
  }
}

const ZERO = 0x30;
const MINUS = 0x2d;
const INTEGER_TEXT = /^-?\d+$/;
/** An integer in canonical decimal form of up to 18 digits: always within int64. */
const SHORT_CANONICAL_INTEGER = /^-?(?:0|[1-9]\d{0,17})$/;
const INT64_MAX_DIGITS = '9223372036854775807';
const INT64_MIN_DIGITS = '9223372036854775808';
const OUTSIDE_INT64 = 'integer outside int64';

/** Decimal `digits` without leading zeros (`'0'` for zero). */
function withoutLeadingZeros(digits: string): string {
  let i = 0;
  while (i < digits.length - 1 && digits.charCodeAt(i) === ZERO) i++;
  return i === 0 ? digits : digits.slice(i);
}

/**
 * A decimal integer (`/^-?\d+$/`) as the canonical decimal of its int64 value (no leading zeros,
 * no `-0`), or `undefined` when it is outside int64. Digits are compared as text, never parsed.
 */
function canonicalInt64(text: string): string | undefined {
  if (SHORT_CANONICAL_INTEGER.test(text)) return text === '-0' ? '0' : text;
  const negative = text.charCodeAt(0) === MINUS;
  const digits = withoutLeadingZeros(negative ? text.slice(1) : text);
  if (digits.length > 19) return undefined;
  if (digits.length === 19 && digits > (negative ? INT64_MIN_DIGITS : INT64_MAX_DIGITS)) return undefined;
  return negative && digits !== '0' ? `-${digits}` : digits;
}

/** An `intValue` as its canonical decimal string; refuses the record when it is not an int64. */
function readInt(value: unknown): string {
  if (typeof value === 'string') {
    if (SHORT_CANONICAL_INTEGER.test(value) && value !== '-0') return value;
    if (!INTEGER_TEXT.test(value)) throw new InvalidRecordError('invalid attribute value');
    const text = canonicalInt64(value);
    if (text === undefined) throw new InvalidRecordError(OUTSIDE_INT64);
    return text;
  }
  if (typeof value === 'number' && Number.isInteger(value)) {
    if (Number.isSafeInteger(value)) return String(value);
    throw new RoundedIntegerError();
  }
  throw new InvalidRecordError('invalid attribute value');
}

/**
 * Normalizes one `AnyValue`, `depth` containers deep (an attribute's value or a log body: 0).
 * Absent or `null` values become the empty value `{}`. Any value deeper than
 * `MAX_ANY_VALUE_DEPTH`, the empty one included, refuses its record. A value already in the
 * stored form (one known member, integers as canonical decimal strings) is returned as it is, not
 * copied.
 */
export function normalizeAnyValue(value: unknown, depth = 0): AnyValue {
  if (depth > MAX_ANY_VALUE_DEPTH) throw new InvalidRecordError('attribute value nested too deeply');
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new InvalidRecordError('invalid attribute value');
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
      case 'intValue': {
        const text = readInt(item);
        if (text === item) result = v as AnyValue;
        else {
          result = { intValue: text };
          canonical = false;
        }
        break;
      }
      case 'doubleValue':
        if (typeof item === 'number') {
          // JSON.parse reads a number past the double range (`1e400`) as an infinity.
          if (!Number.isFinite(item)) throw new InvalidRecordError('double outside its range');
          result = v as AnyValue;
        } else if (item === 'NaN' || item === 'Infinity' || item === '-Infinity') {
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

/** The latest time the store holds, 2^63 - 1 ns: SQLite integers are signed 64-bit (about the year 2262). */
const MAX_TIMESTAMP_DIGITS = INT64_MAX_DIGITS;
const DIGITS = /^\d+$/;

/**
 * Reads an OTLP 64-bit nanosecond timestamp (a decimal string or a JSON number) as its canonical
 * decimal string; absent is 0. A time past 2^63 - 1 ns, which OTLP's `fixed64` allows but the
 * store cannot hold, refuses its record, and so does anything else: an empty string, a sign,
 * a fraction.
 */
export function readTimestamp(value: unknown): string {
  if (value === undefined || value === null) return '0';
  if (typeof value === 'string' && DIGITS.test(value)) {
    // Up to 18 digits always fits; 19 digits compare as text (same length).
    if (value.length < 19 && (value.length === 1 || value.charCodeAt(0) !== ZERO)) return value;
    const digits = withoutLeadingZeros(value);
    if (digits.length < 19 || (digits.length === 19 && digits <= MAX_TIMESTAMP_DIGITS)) return digits;
  } else if (typeof value === 'number' && Number.isInteger(value) && value >= 0) {
    if (Number.isSafeInteger(value)) return String(value);
    throw new RoundedIntegerError();
  }
  throw new InvalidRecordError('invalid timestamp');
}

/** True when decimal time `a` is earlier than `b` (both canonical, as {@link readTimestamp} gives). */
export function isEarlier(a: string, b: string): boolean {
  return a.length < b.length || (a.length === b.length && a < b);
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
