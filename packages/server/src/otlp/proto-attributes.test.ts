import fc from 'fast-check';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { decodeRequest } from '../ingest/decode-request.js';
import { MAX_ANY_VALUE_DEPTH } from '../limits.js';
import { InvalidRecordError, normalizeKeyValues } from './any-value.js';
import { ingestAttributes, ingestBody } from './ingest-values.js';
import { MalformedExportError } from './malformed-export-error.js';
import { otlpIngestProto, otlpProto } from './otlp-proto.js';
import { protoAnyValue, protoKeyValues } from './proto-attributes.js';
import { logsFromProto, tracesFromProto } from './proto-to-json.js';

const FROM_BYTES = { attributes: protoKeyValues, value: protoAnyValue };

const traceId = Buffer.from('4bf92f3577b34da6a3ce929d0e0e4736', 'hex');
const spanId = Buffer.from('00f067aa0ba902b7', 'hex');

/** The protobuf body of one span with `attributes` (protobufjs `fromObject` form). */
function spanBody(attributes: unknown[]): Uint8Array {
  const type = otlpProto.ExportTraceServiceRequest;
  const request = {
    resourceSpans: [{ scopeSpans: [{ spans: [{ traceId, spanId, name: 'op', attributes }] }] }],
  };
  return type.encode(type.fromObject(request)).finish();
}

type Spans = { resourceSpans: { scopeSpans: { spans: { attributes: unknown }[] }[] }[] };
const firstSpan = (json: unknown) => (json as Spans).resourceSpans[0]!.scopeSpans[0]!.spans[0]!;

/** What the full decode stores for the span's attributes: protobufjs objects, converted, normalized. */
function storedTheLongWay(body: Uint8Array): string {
  const json = tracesFromProto(otlpProto.ExportTraceServiceRequest.decode(body));
  return JSON.stringify(normalizeKeyValues(firstSpan(json).attributes));
}

/** What the ingest decoder stores: the attributes left as chunks, serialized straight from them. */
function storedDirectly(body: Uint8Array): { json: string; keys: readonly string[] } {
  const json = tracesFromProto(otlpIngestProto.ExportTraceServiceRequest.decode(body), FROM_BYTES);
  const attributes = ingestAttributes(firstSpan(json).attributes);
  if (Array.isArray(attributes)) throw new Error('expected serialized attributes');
  return attributes;
}

/** Bytes of one message, written field by field (to write what protobufjs's encoder never would). */
function message(write: (w: protobuf.Writer) => void): Uint8Array {
  const writer = protobuf.Writer.create();
  write(writer);
  return writer.finish();
}

/** A request body of one span whose attribute list is `chunks` (encoded `KeyValue` messages). */
function spanBodyOf(chunks: Uint8Array[]): Uint8Array {
  const span = message((s) => {
    s.uint32((1 << 3) | 2).bytes(traceId);
    s.uint32((2 << 3) | 2).bytes(spanId);
    s.uint32((5 << 3) | 2).string('op');
    for (const chunk of chunks) s.uint32((9 << 3) | 2).bytes(chunk);
  });
  const scopeSpans = message((s) => s.uint32((2 << 3) | 2).bytes(span));
  const resourceSpans = message((r) => r.uint32((2 << 3) | 2).bytes(scopeSpans));
  return message((w) => w.uint32((1 << 3) | 2).bytes(resourceSpans));
}

const keyValue = (key: string, value?: Uint8Array) =>
  message((w) => {
    w.uint32((1 << 3) | 2).string(key);
    if (value !== undefined) w.uint32((2 << 3) | 2).bytes(value);
  });

// AnyValue in the protobufjs object form, every member kind, nested.
const scalar = fc.oneof(
  fc.record({ stringValue: fc.string({ unit: 'binary' }) }),
  fc.record({
    stringValue: fc.constantFrom('', 'a"b\\c', 'line\nbreak\u0001', '"quoted" {"json": [1]}', 'é😀'),
  }),
  fc.record({ boolValue: fc.boolean() }),
  fc.record({ intValue: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String) }),
  fc.record({
    doubleValue: fc.oneof(fc.double(), fc.constantFrom(Number.NaN, Infinity, -Infinity, -0, 1e21, 5e-324)),
  }),
  fc.record({ bytesValue: fc.uint8Array({ maxLength: 40 }) }),
  fc.constant({}),
);
const { value: anyValue } = fc.letrec<{ value: unknown; kv: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.record({ arrayValue: fc.record({ values: fc.array(tie('value'), { maxLength: 4 }) }) }),
    fc.record({ kvlistValue: fc.record({ values: fc.array(tie('kv'), { maxLength: 4 }) }) }),
  ),
  kv: fc.record({ key: fc.string(), value: fc.option(tie('value'), { nil: undefined }) }),
}));
const attributeList = fc.array(
  fc.record({
    key: fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('gen_ai.request.model', '')),
    value: fc.option(anyValue, { nil: undefined }),
  }),
  { maxLength: 8 },
);

describe('protobuf attribute lists serialized from their bytes', () => {
  it('store exactly the text of the full decode, for any attribute list', () => {
    fc.assert(
      fc.property(attributeList, (attributes) => {
        const body = spanBody(attributes);
        const direct = storedDirectly(body);
        expect(direct.json).toBe(storedTheLongWay(body));
        expect(direct.keys).toEqual((JSON.parse(direct.json) as { key: string }[]).map(({ key }) => key));
      }),
      { numRuns: 400 },
    );
  });

  it('keep, of several value members on the wire, the one protobufjs keeps; a repeated key, its last', () => {
    const value = message((w) => {
      w.uint32((1 << 3) | 2).string('first');
      w.uint32((3 << 3) | 0).int64(7);
      w.uint32((1 << 3) | 2).string('again');
      w.uint32((99 << 3) | 0).uint32(1); // an unknown field
    });
    const kv = message((w) => {
      w.uint32((1 << 3) | 2).string('old');
      w.uint32((2 << 3) | 2).bytes(value);
      w.uint32((1 << 3) | 2).string('new');
    });
    const body = spanBodyOf([kv]);
    expect(storedDirectly(body).json).toBe(storedTheLongWay(body));
    expect(storedDirectly(body).json).toBe('[{"key":"new","value":{"stringValue":"again"}}]');
  });

  it('read long varints as protobufjs does: a bool true when any bit is set, a five-byte tag', () => {
    // An AnyValue: `boolValue` as the varint `bytes` (protobufjs's writer would shorten them), then
    // an unknown length-delimited field numbered 2^25 + 1 (a five-byte tag; without its fifth
    // byte it would read as a later `stringValue`).
    const boolValue = (varint: number[]) =>
      Buffer.concat([
        Buffer.from([(2 << 3) | 0, ...varint]),
        message((w) => w.uint32((2 ** 25 + 1) * 8 + 2).string('not a string value')),
      ]);
    const chunks = [
      keyValue('a', boolValue([0x80, 0x80, 0x80, 0x80, 0x01])), // 2^28
      keyValue('b', boolValue([0x80, 0x80, 0x80, 0x80, 0x10])), // 2^32: its low 32 bits are 0
      keyValue('z', boolValue([0x80, 0x80, 0x00])), // zero, written long
      keyValue('c', boolValue([0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01])), // 2^63 + 1
    ];
    const body = spanBodyOf(chunks);
    expect(storedDirectly(body).json).toBe(storedTheLongWay(body));
    expect(storedDirectly(body).json).toBe(
      '[{"key":"a","value":{"boolValue":true}},{"key":"b","value":{"boolValue":true}},' +
        '{"key":"z","value":{"boolValue":false}},{"key":"c","value":{"boolValue":true}}]',
    );
  });

  it('refuse, as the record decoder does, a value nested deeper than the limit', () => {
    let value = message((w) => w.uint32((1 << 3) | 2).string('deep'));
    for (let depth = 0; depth <= MAX_ANY_VALUE_DEPTH; depth++) {
      const array = message((w) => w.uint32((1 << 3) | 2).bytes(value));
      value = message((w) => w.uint32((5 << 3) | 2).bytes(array));
    }
    const chunks = [keyValue('nested', value)];
    expect(() => protoKeyValues(chunks).read()).toThrow('attribute value nested too deeply');
    const { outcome, batch } = decodeRequest('traces', 'protobuf', spanBodyOf(chunks));
    expect(outcome).toEqual({
      accepted: 0,
      rejected: 1,
      reasons: [['attribute value nested too deeply', 1]],
      warnings: [],
    });
    expect(batch).toBeNull();
  });

  it('answer a list whose bytes are not KeyValue messages as a malformed request, naming no content', () => {
    const truncated = keyValue(
      'gen_ai.prompt',
      message((w) => w.uint32((1 << 3) | 2).string('secret text')),
    ).subarray(0, 20);
    const group = message((w) => w.uint32((1 << 3) | 3));
    const notUtf8 = keyValue(
      'k',
      message((w) => w.uint32((1 << 3) | 2).bytes(Buffer.from([0x73, 0xff, 0xfe]))),
    );
    for (const chunk of [truncated, group, notUtf8]) {
      let error: unknown;
      try {
        protoKeyValues([chunk]);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(MalformedExportError);
      expect(String(error)).not.toContain('secret');
    }
  });

  it('read each chunk within its own bounds, wherever it sits in the request body', () => {
    const a = keyValue(
      'a',
      message((w) => w.uint32((1 << 3) | 2).string('x')),
    );
    const b = keyValue(
      'b',
      message((w) => w.uint32((2 << 3) | 0).bool(true)),
    );
    const shared = Buffer.concat([Buffer.from([0xff, 0xff]), a, Buffer.from([0xff]), b, Buffer.from([0xff])]);
    const chunks = [shared.subarray(2, 2 + a.length), shared.subarray(3 + a.length, 3 + a.length + b.length)];
    const list = protoKeyValues(chunks).read();
    expect({ json: list.json, keys: list.keys }).toEqual({
      json: '[{"key":"a","value":{"stringValue":"x"}},{"key":"b","value":{"boolValue":true}}]',
      keys: ['a', 'b'],
    });
  });

  it('store a log body exactly as the full decode does, with the keys of its kvlist', () => {
    fc.assert(
      fc.property(anyValue, (value) => {
        const type = otlpProto.ExportLogsServiceRequest;
        const request = { resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: value }] }] }] };
        const bytes = type.encode(type.fromObject(request)).finish();
        type Logs = { resourceLogs: { scopeLogs: { logRecords: { body: unknown }[] }[] }[] };
        const first = (json: unknown) => (json as Logs).resourceLogs[0]!.scopeLogs[0]!.logRecords[0]!.body;
        const full = ingestBody(first(logsFromProto(type.decode(bytes))));
        const direct = ingestBody(
          first(logsFromProto(otlpIngestProto.ExportLogsServiceRequest.decode(bytes), FROM_BYTES)),
        );
        if (full === null) {
          expect(direct).toBeNull();
          return;
        }
        const { json, keys } = direct as { json: string; keys: readonly string[] };
        expect(json).toBe(JSON.stringify(full));
        const kvlist = (full as { kvlistValue?: { values: { key: string }[] } }).kvlistValue;
        expect(keys).toEqual(kvlist ? kvlist.values.map(({ key }) => key) : []);
      }),
      { numRuns: 300 },
    );
  });

  it('keep the keys of the last value member of a body, as protobufjs keeps its last member', () => {
    const kvlist = message((w) =>
      w.uint32((1 << 3) | 2).bytes(
        keyValue(
          'k',
          message((v) => v.uint32((2 << 3) | 0).bool(true)),
        ),
      ),
    );
    const body = message((w) => {
      w.uint32((6 << 3) | 2).bytes(kvlist);
      w.uint32((1 << 3) | 2).string('then a string');
      w.uint32((99 << 3) | 0).uint32(1); // an unknown field after it
    });
    expect({ ...protoAnyValue(body).read() }).toMatchObject({
      json: '{"stringValue":"then a string"}',
      keys: [],
    });
    const kvlistLast = Buffer.concat([
      message((w) => w.uint32((1 << 3) | 2).string('first')),
      message((w) => w.uint32((6 << 3) | 2).bytes(kvlist)),
    ]);
    expect(protoAnyValue(kvlistLast).read().keys).toEqual(['k']);
  });

  it('keep a value nested too deeply as the refusal of its record, not of the request', () => {
    let value = message((w) => w.uint32((1 << 3) | 2).string('deep'));
    for (let depth = 0; depth <= MAX_ANY_VALUE_DEPTH; depth++) {
      value = message((w) =>
        w.uint32((6 << 3) | 2).bytes(message((l) => l.uint32((1 << 3) | 2).bytes(keyValue('k', value)))),
      );
    }
    const deep = protoAnyValue(value);
    expect(deep.refusal).toBe('attribute value nested too deeply');
    expect(() => deep.read()).toThrow(InvalidRecordError);
  });
});
