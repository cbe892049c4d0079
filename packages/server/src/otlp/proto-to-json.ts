/**
 * Turns decoded protobuf OTLP export requests (protobufjs message objects) into the OTLP JSON
 * shape the record decoders read: IDs as lowercase hex, 64-bit integers as decimal strings,
 * `bytesValue` as base64, non-finite doubles as `"NaN"`, `"Infinity"`, `"-Infinity"` (the proto3
 * JSON mapping). Faster than protobufjs `toObject`, which writes IDs as base64 and formats every
 * 64-bit value through long.js.
 *
 * Self-contained (no relative imports), so the ingest benchmark's baseline decodes with this
 * same code.
 * @module
 */

/** A decoded protobuf message: set fields are own properties, defaults sit on the prototype. */
type Message = Record<string, unknown>;

/** A protobufjs 64-bit value: a long.js `Long`, or a number when long.js is absent. */
type Int64 = number | { low: number; high: number; unsigned?: boolean };

function hex(bytes: unknown): string {
  if (!(bytes instanceof Uint8Array) || bytes.byteLength === 0) return '';
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** A 64-bit integer as a decimal string; `unsigned` for fixed64 fields. */
function int64(value: unknown, unsigned: boolean): string {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'object' || value === null) return '0';
  const { low, high } = value as Exclude<Int64, number>;
  if (high === 0 && low >= 0) return String(low);
  const bits = (BigInt(high) << 32n) | BigInt(low >>> 0);
  return (unsigned ? BigInt.asUintN(64, bits) : BigInt.asIntN(64, bits)).toString();
}

function double(value: number): number | string {
  if (Number.isFinite(value)) return value;
  return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
}

function anyValue(v: unknown): Message {
  if (typeof v !== 'object' || v === null) return {};
  const m = v as Message;
  const keys = Object.keys(m);
  // A oneof holds one member; should the wire carry several, the last one read wins.
  switch (keys[keys.length - 1]) {
    case 'stringValue':
      return { stringValue: m.stringValue };
    case 'boolValue':
      return { boolValue: m.boolValue };
    case 'intValue':
      return { intValue: int64(m.intValue, false) };
    case 'doubleValue':
      return { doubleValue: double(m.doubleValue as number) };
    case 'bytesValue':
      return { bytesValue: base64(m.bytesValue as Uint8Array) };
    case 'arrayValue':
      return { arrayValue: { values: list((m.arrayValue as Message).values).map(anyValue) } };
    case 'kvlistValue':
      return { kvlistValue: { values: keyValues((m.kvlistValue as Message).values) } };
    default:
      return {};
  }
}

function list(value: unknown): Message[] {
  return Array.isArray(value) ? (value as Message[]) : [];
}

function keyValues(value: unknown): Message[] {
  return list(value).map((kv) => ({ key: kv.key, value: anyValue(kv.value) }));
}

/**
 * How attribute lists and values are converted: from decoded messages (`keyValues`, `anyValue`),
 * or, for the ingest decoder, whose message types leave them undecoded, from their bytes.
 */
export interface ValueConversions {
  /** An attribute list: the list of `KeyValue` messages, or its undecoded chunks. */
  attributes(list: unknown): unknown;
  /** A log record's body: an `AnyValue` message, or its undecoded bytes. */
  value(value: unknown): unknown;
}

const DECODED: ValueConversions = { attributes: keyValues, value: anyValue };

function resource(m: unknown, convert: ValueConversions): Message | undefined {
  if (typeof m !== 'object' || m === null) return undefined;
  const r = m as Message;
  return { attributes: convert.attributes(r.attributes), droppedAttributesCount: r.droppedAttributesCount };
}

function scope(m: unknown, convert: ValueConversions): Message | undefined {
  if (typeof m !== 'object' || m === null) return undefined;
  const s = m as Message;
  return {
    name: s.name,
    version: s.version,
    attributes: convert.attributes(s.attributes),
    droppedAttributesCount: s.droppedAttributesCount,
  };
}

function span(s: Message, convert: ValueConversions): Message {
  const status = s.status as Message | null | undefined;
  return {
    traceId: hex(s.traceId),
    spanId: hex(s.spanId),
    parentSpanId: hex(s.parentSpanId),
    traceState: s.traceState,
    flags: s.flags,
    name: s.name,
    kind: s.kind,
    startTimeUnixNano: int64(s.startTimeUnixNano, true),
    endTimeUnixNano: int64(s.endTimeUnixNano, true),
    attributes: convert.attributes(s.attributes),
    droppedAttributesCount: s.droppedAttributesCount,
    events: list(s.events).map((e) => ({
      timeUnixNano: int64(e.timeUnixNano, true),
      name: e.name,
      attributes: convert.attributes(e.attributes),
      droppedAttributesCount: e.droppedAttributesCount,
    })),
    droppedEventsCount: s.droppedEventsCount,
    links: list(s.links).map((l) => ({
      traceId: hex(l.traceId),
      spanId: hex(l.spanId),
      traceState: l.traceState,
      flags: l.flags,
      attributes: convert.attributes(l.attributes),
      droppedAttributesCount: l.droppedAttributesCount,
    })),
    droppedLinksCount: s.droppedLinksCount,
    status: status ? { code: status.code, message: status.message } : undefined,
  };
}

function logRecord(l: Message, convert: ValueConversions): Message {
  return {
    timeUnixNano: int64(l.timeUnixNano, true),
    observedTimeUnixNano: int64(l.observedTimeUnixNano, true),
    severityNumber: l.severityNumber,
    severityText: l.severityText,
    // Set fields are own properties; an absent body's default sits on the prototype.
    body: Object.hasOwn(l, 'body') ? convert.value(l.body) : undefined,
    attributes: convert.attributes(l.attributes),
    droppedAttributesCount: l.droppedAttributesCount,
    flags: l.flags,
    traceId: hex(l.traceId),
    spanId: hex(l.spanId),
    eventName: l.eventName,
  };
}

/** Walks resource → scope → records of an export request, converting each record. */
function envelope(
  request: unknown,
  [resources, scopes, records]: [string, string, string],
  convertRecord: (record: Message, convert: ValueConversions) => Message,
  convert: ValueConversions,
): Message {
  return {
    [resources]: list((request as Message)[resources]).map((r) => ({
      resource: resource(r.resource, convert),
      schemaUrl: r.schemaUrl,
      [scopes]: list(r[scopes]).map((s) => ({
        scope: scope(s.scope, convert),
        schemaUrl: s.schemaUrl,
        [records]: list(s[records]).map((record) => convertRecord(record, convert)),
      })),
    })),
  };
}

/**
 * A decoded `ExportTraceServiceRequest` in the OTLP JSON shape. `convert` converts attribute
 * lists (default: `KeyValue` messages to their JSON shape); the ingest decoder, whose message
 * types leave them undecoded, passes its own.
 */
export function tracesFromProto(request: unknown, convert: ValueConversions = DECODED): Message {
  return envelope(request, ['resourceSpans', 'scopeSpans', 'spans'], span, convert);
}

/** A decoded `ExportLogsServiceRequest` in the OTLP JSON shape; `convert` as for traces. */
export function logsFromProto(request: unknown, convert: ValueConversions = DECODED): Message {
  return envelope(request, ['resourceLogs', 'scopeLogs', 'logRecords'], logRecord, convert);
}
