/**
 * Attribute lists and values (log bodies) of OTLP protobuf requests, serialized straight from
 * their wire bytes into the stored JSON text.
 *
 * The ingest decoder reads every attribute list (of resources, scopes, spans, span events, span
 * links and log records) as raw bytes, one chunk per `KeyValue`, and a log record's body as the
 * raw bytes of its `AnyValue` (`otlpIngestProto`), instead of letting protobufjs build a message
 * object for every key and value, which the service would then convert, check and serialize
 * again. The text written here is exactly what that longer path stores: `JSON.stringify` of what
 * `keyValues` / `anyValue` of `proto-to-json.ts` and then `normalizeKeyValues` /
 * `normalizeAnyValue` make (the tests hold the two paths equal), including the proto3 JSON forms
 * (`intValue` as a decimal string, `bytesValue` as base64, non-finite doubles as strings), the
 * empty value `{}`, a repeated field's last occurrence, and a string that is not UTF-8 making the
 * request malformed. One difference: a value nested deeper than `MAX_ANY_VALUE_DEPTH` refuses its
 * record, exactly as in OTLP JSON, wherever it is, where protobufjs's recursion limit (100
 * messages: about 32 nested kvlists) made the whole request undecodable.
 *
 * Lists and values are serialized as the request is converted (`proto-to-json.ts`), before any
 * record is validated, so that bytes that are not protobuf, or not UTF-8, make the request
 * malformed wherever they are, as they do for every other string protobufjs decodes. A value
 * nested too deeply is kept as the reason its record is refused when the record is decoded.
 * @module
 */
import { isUtf8 } from 'node:buffer';
import { MAX_ANY_VALUE_DEPTH } from '../limits.js';
import { InvalidRecordError } from './any-value.js';
import { MalformedExportError } from './malformed-export-error.js';
import type { SerializedAttributes } from './model.js';

const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;
const FIXED32 = 5;

// AnyValue fields.
const STRING_VALUE = 1;
const BOOL_VALUE = 2;
const INT_VALUE = 3;
const DOUBLE_VALUE = 4;
const ARRAY_VALUE = 5;
const KVLIST_VALUE = 6;
const BYTES_VALUE = 7;

/** `Buffer`'s own UTF-8 decoding of a range, without `toString`'s argument handling. */
type SliceableBuffer = Buffer & { utf8Slice(start: number, end: number): string };

const NO_BYTES = Buffer.alloc(0) as SliceableBuffer;

// The bytes being read (a view of the chunks' whole ArrayBuffer: a list's chunks share the request
// body's), and the cursor. Reading is synchronous: one list is serialized at a time, and `bytes`
// lets go of the body when it is done.
let bytes = NO_BYTES;
let pos = 0;
/** Start of the field content read last by `delimited()`; it ends at `pos`. */
let fieldStart = 0;

const scratch = new Uint8Array(8);
const scratchDouble = new Float64Array(scratch.buffer);

function malformed(): MalformedExportError {
  return new MalformedExportError('an attribute list is not valid protobuf');
}

/**
 * A varint's low 32 bits, as protobufjs reads tags and lengths. Shifts, not powers of two:
 * `2 ** n` of a variable `n` is a call to `Math.pow`.
 */
function uint32(end: number): number {
  let value = 0;
  for (let i = 0; i < 10; i++) {
    if (pos >= end) throw malformed();
    const b = bytes[pos++]!;
    // Bits past the 32nd fall off the shift (the fifth byte keeps its low 4 bits).
    if (i < 5) value |= (b & 0x7f) << (7 * i);
    if (b < 0x80) return value >>> 0;
  }
  throw malformed();
}

/** A varint `bool`: true when any of its bits is set, as protobufjs reads it (not only the low 32). */
function bool(end: number): boolean {
  let value = false;
  for (let i = 0; i < 10; i++) {
    if (pos >= end) throw malformed();
    const b = bytes[pos++]!;
    if ((b & 0x7f) !== 0) value = true;
    if (b < 0x80) return value;
  }
  throw malformed();
}

/** What the 6th to 10th bytes of a varint are worth in its high 32 bits. */
const HIGH_SCALE = [0, 0, 0, 0, 0, 2 ** 3, 2 ** 10, 2 ** 17, 2 ** 24, 2 ** 31];

/** A varint `int64` as a signed decimal string. */
function int64(end: number): string {
  let low = 0;
  let high = 0;
  for (let i = 0; i < 10; i++) {
    if (pos >= end) throw malformed();
    const b = bytes[pos++]!;
    if (i < 4) low |= (b & 0x7f) << (7 * i);
    else if (i === 4) {
      low += (b & 0x0f) * 2 ** 28;
      high += (b & 0x7f) >>> 4;
    } else high += (b & 0x7f) * HIGH_SCALE[i]!;
    if (b < 0x80) {
      high %= 2 ** 32;
      if (high === 0) return String(low);
      return BigInt.asIntN(64, (BigInt(high) << 32n) | BigInt(low)).toString();
    }
  }
  throw malformed();
}

function double(end: number): number {
  if (end - pos < 8) throw malformed();
  for (let i = 0; i < 8; i++) scratch[i] = bytes[pos + i]!;
  pos += 8;
  return scratchDouble[0]!;
}

/** Reads a length-delimited field: its content is `[fieldStart, pos)` afterwards. */
function delimited(end: number): void {
  const length = uint32(end);
  if (length > end - pos) throw malformed();
  fieldStart = pos;
  pos += length;
}

function skip(wireType: number, end: number): void {
  switch (wireType) {
    case VARINT:
      uint32(end);
      return;
    case FIXED64:
    case FIXED32: {
      const size = wireType === FIXED64 ? 8 : 4;
      if (end - pos < size) throw malformed();
      pos += size;
      return;
    }
    case LENGTH_DELIMITED:
      delimited(end);
      return;
    default:
      // Groups (3, 4) are not part of OTLP; protobufjs refuses them too.
      throw malformed();
  }
}

/**
 * UTF-8 text of `[start, end)`. As protobufjs does for proto3 strings, bytes that are not UTF-8
 * make the request malformed (decoding put U+FFFD in their place: only then are they checked).
 */
function utf8(start: number, end: number): string {
  const text = bytes.utf8Slice(start, end);
  if (text.includes('\uFFFD') && !isUtf8(bytes.subarray(start, end))) throw malformed();
  return text;
}

function doubleJson(value: number): string {
  if (Number.isFinite(value)) return JSON.stringify(value);
  return Number.isNaN(value) ? '"NaN"' : value > 0 ? '"Infinity"' : '"-Infinity"';
}

/** An attribute key met before: its bytes, its text and its JSON. */
interface KnownKey {
  readonly bytes: Uint8Array;
  readonly key: string;
  readonly json: string;
}

/**
 * Keys met before, by a hash of their bytes: attribute keys repeat from record to record, and
 * finding one here costs less than decoding and quoting it again.
 */
const knownKeys = new Map<number, KnownKey>();
const MAX_KNOWN_KEYS = 4096;
const MAX_KNOWN_KEY_BYTES = 128;

/** The key at `[start, end)`, from `knownKeys` when its bytes were met before. */
function readKey(start: number, end: number): KnownKey {
  const length = end - start;
  if (length > MAX_KNOWN_KEY_BYTES) {
    const key = utf8(start, end);
    return { bytes: bytes.subarray(start, end), key, json: JSON.stringify(key) };
  }
  let hash = length;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  const known = knownKeys.get(hash);
  if (known !== undefined && known.bytes.length === length) {
    let same = true;
    for (let i = 0; i < length; i++) {
      if (known.bytes[i] !== bytes[start + i]) {
        same = false;
        break;
      }
    }
    if (same) return known;
  }
  const key = utf8(start, end);
  const entry: KnownKey = {
    bytes: Uint8Array.prototype.slice.call(bytes, start, end),
    key,
    json: JSON.stringify(key),
  };
  if (knownKeys.size >= MAX_KNOWN_KEYS) knownKeys.clear();
  knownKeys.set(hash, entry);
  return entry;
}

/**
 * The JSON of the `AnyValue` message at `[start, end)` (`start < 0`: the field is absent), nested
 * `depth` containers deep; `keys` (when given) gets the keys of the value's kvlist. Of several
 * `value` members on the wire, the last one read is kept, as protobufjs keeps it (a oneof holds
 * one member). Any value deeper than the limit refuses its record, the empty value included, as
 * `normalizeAnyValue` does.
 */
function anyValueJson(start: number, end: number, depth: number, keys: string[] | null): string {
  if (depth > MAX_ANY_VALUE_DEPTH) throw new InvalidRecordError('attribute value nested too deeply');
  if (start < 0) return '{}';
  pos = start;
  let json = '{}';
  let jsonKeys: string[] | null = null;
  while (pos < end) {
    let textKeys: string[] | null = null;
    const tag = uint32(end);
    const field = tag >>> 3;
    const wireType = tag & 7;
    let text: string;
    if (field === STRING_VALUE && wireType === LENGTH_DELIMITED) {
      delimited(end);
      text = `{"stringValue":${JSON.stringify(utf8(fieldStart, pos))}}`;
    } else if (field === BOOL_VALUE && wireType === VARINT) {
      text = bool(end) ? '{"boolValue":true}' : '{"boolValue":false}';
    } else if (field === INT_VALUE && wireType === VARINT) {
      text = `{"intValue":"${int64(end)}"}`;
    } else if (field === DOUBLE_VALUE && wireType === FIXED64) {
      text = `{"doubleValue":${doubleJson(double(end))}}`;
    } else if (field === ARRAY_VALUE && wireType === LENGTH_DELIMITED) {
      delimited(end);
      const after = pos;
      text = `{"arrayValue":{"values":${listJson(fieldStart, after, depth + 1, false, null)}}}`;
      pos = after;
    } else if (field === KVLIST_VALUE && wireType === LENGTH_DELIMITED) {
      delimited(end);
      const after = pos;
      textKeys = keys === null ? null : [];
      text = `{"kvlistValue":{"values":${listJson(fieldStart, after, depth + 1, true, textKeys)}}}`;
      pos = after;
    } else if (field === BYTES_VALUE && wireType === LENGTH_DELIMITED) {
      delimited(end);
      text = `{"bytesValue":"${bytes.toString('base64', fieldStart, pos)}"}`;
    } else {
      skip(wireType, end);
      continue;
    }
    json = text;
    jsonKeys = textKeys;
  }
  if (jsonKeys !== null) for (const key of jsonKeys) keys!.push(key);
  return json;
}

/**
 * The JSON array of an `ArrayValue`'s (or, `keyValues`, a `KeyValueList`'s) values; a
 * `KeyValueList`'s keys go to `keys` when given.
 */
function listJson(
  start: number,
  end: number,
  depth: number,
  keyValues: boolean,
  keys: string[] | null,
): string {
  let json = '[';
  pos = start;
  while (pos < end) {
    const tag = uint32(end);
    if (tag >>> 3 === 1 && (tag & 7) === LENGTH_DELIMITED) {
      delimited(end);
      const after = pos;
      if (json.length > 1) json += ',';
      json += keyValues
        ? keyValueJson(fieldStart, after, depth, keys)
        : anyValueJson(fieldStart, after, depth, null);
      pos = after;
    } else skip(tag & 7, end);
  }
  return `${json}]`;
}

/** The JSON of the `KeyValue` message at `[start, end)`; its key is pushed to `keys` when given. */
function keyValueJson(start: number, end: number, depth: number, keys: string[] | null): string {
  let key: KnownKey | undefined;
  let valueStart = -1;
  let valueEnd = -1;
  pos = start;
  while (pos < end) {
    const tag = uint32(end);
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (field === 1 && wireType === LENGTH_DELIMITED) {
      delimited(end);
      key = readKey(fieldStart, pos);
    } else if (field === 2 && wireType === LENGTH_DELIMITED) {
      delimited(end);
      valueStart = fieldStart;
      valueEnd = pos;
    } else skip(wireType, end);
  }
  keys?.push(key?.key ?? '');
  return `{"key":${key?.json ?? '""'},"value":${anyValueJson(valueStart, valueEnd, depth, null)}}`;
}

/**
 * An attribute list or a value read from protobuf bytes: its stored JSON text and keys (see
 * {@link SerializedAttributes}), or the reason its record is refused.
 */
export class ProtoJson implements SerializedAttributes {
  readonly json: string;
  readonly keys: readonly string[];
  /** Why the record holding the value is refused (nested too deeply), if it is. */
  readonly refusal: string | undefined;

  constructor(json: string, keys: readonly string[], refusal?: string) {
    this.json = json;
    this.keys = keys;
    this.refusal = refusal;
  }

  /** The stored text; throws `InvalidRecordError` when the value refuses its record. */
  read(): SerializedAttributes {
    if (this.refusal !== undefined) throw new InvalidRecordError(this.refusal);
    return this;
  }
}

/** Runs `write` over the bytes of `chunks` (which share one buffer, or each its own). */
function serialize(write: (keys: string[]) => string): ProtoJson {
  const keys: string[] = [];
  try {
    return new ProtoJson(write(keys), keys);
  } catch (error) {
    if (error instanceof InvalidRecordError) return new ProtoJson('', [], error.message);
    throw error;
  } finally {
    bytes = NO_BYTES;
  }
}

function use(chunk: Uint8Array): void {
  if (bytes.buffer !== chunk.buffer) bytes = Buffer.from(chunk.buffer) as SliceableBuffer;
}

/**
 * An attribute list from the protobuf bytes of its `KeyValue` messages, one chunk each (the list
 * read as `repeated bytes`). Throws `MalformedExportError` (the request is not valid protobuf)
 * for bytes that are not `KeyValue` messages or strings that are not UTF-8.
 */
export function protoKeyValues(chunks: unknown): ProtoJson {
  const list = Array.isArray(chunks) ? (chunks as Uint8Array[]) : [];
  return serialize((keys) => {
    let json = '[';
    for (const chunk of list) {
      use(chunk);
      if (json.length > 1) json += ',';
      json += keyValueJson(chunk.byteOffset, chunk.byteOffset + chunk.byteLength, 0, keys);
    }
    return `${json}]`;
  });
}

/**
 * A value (a log record's body) from the protobuf bytes of its `AnyValue` message (the field read
 * as `bytes`); its keys are those of its kvlist. Throws as {@link protoKeyValues}.
 */
export function protoAnyValue(chunk: unknown): ProtoJson {
  return serialize((keys) => {
    if (!(chunk instanceof Uint8Array)) return '{}';
    use(chunk);
    return anyValueJson(chunk.byteOffset, chunk.byteOffset + chunk.byteLength, 0, keys);
  });
}
