/**
 * Property: any OTLP export request, encoded as JSON and as protobuf, is stored identically or
 * refused identically. Each generated request goes, JSON-encoded, to one server and,
 * protobuf-encoded, to another; their answers and everything they stored (spans with their
 * resource, scope, events and links; log records with theirs) must be the same.
 *
 * Two kinds of encoders, so the property is not checked against an encoder of ours:
 * - OpenTelemetry's own serializers (`@opentelemetry/otlp-transformer`, what its OTLP/HTTP
 *   exporters send), for everything the SDK's data can hold: attribute values nested to any depth
 *   at every position (resource, scope, span, event, link and log attributes, and the log body),
 *   any string (unpaired surrogates included), safe integers, finite doubles, bytes, empty values,
 *   times past what the store holds, spans ending before they start.
 * - protobufjs (the protobuf encoding, and its `toObject` for the OTLP JSON one), for what the
 *   SDK's JavaScript numbers cannot hold: 64-bit integers at and around their edges, written in
 *   JSON as strings or as bare numbers, and non-finite doubles. protobufjs's own recursion limit
 *   keeps these values shallow; the deep ones come from the first kind.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANY_VALUE_DEPTH } from '../limits.js';
import type { KeyValue } from '../otlp/model.js';
import { otlpProto } from '../otlp/otlp-proto.js';
import { DATABASE_FILE } from '../start-server.js';
import {
  encodeSdkLogRecords,
  encodeSdkSpans,
  type HrTime,
  type SdkAttributes,
  sdkLogRecord,
  sdkSpan,
} from '../test-support/sdk-records.js';
import { type ServerFixture, useServer } from '../test-support/server-fixture.js';
import type { OtlpEncoding, OtlpSignal } from './decode-request.js';

const servers: Record<OtlpEncoding, ServerFixture> = { json: useServer(), protobuf: useServer() };
const databases = {} as Record<OtlpEncoding, DatabaseSync>;
beforeAll(() => {
  for (const encoding of ['json', 'protobuf'] as const) {
    databases[encoding] = new DatabaseSync(join(servers[encoding].server.dataDir, DATABASE_FILE), {
      readOnly: true,
    });
  }
});
afterAll(() => {
  for (const db of Object.values(databases)) db.close();
});

const PATHS: Record<OtlpSignal, string> = { traces: '/api/v1/otlp/v1/traces', logs: '/api/v1/otlp/v1/logs' };
const RESPONSES = {
  traces: { type: otlpProto.ExportTraceServiceResponse, field: 'rejectedSpans' },
  logs: { type: otlpProto.ExportLogsServiceResponse, field: 'rejectedLogRecords' },
} as const;

/** What a server answered, the same shape from either encoding. */
async function post(signal: OtlpSignal, encoding: OtlpEncoding, body: Uint8Array) {
  const { server } = servers[encoding];
  const res = await server.app.request(PATHS[signal], {
    method: 'POST',
    headers: {
      authorization: `Bearer ${server.keys.tracing}`,
      'content-type': encoding === 'json' ? 'application/json' : 'application/x-protobuf',
    },
    body,
  });
  if (res.status !== 200) return { status: res.status };
  const { type, field } = RESPONSES[signal];
  let partial: Record<string, unknown> | undefined;
  if (encoding === 'json') {
    partial = ((await res.json()) as { partialSuccess?: Record<string, unknown> }).partialSuccess;
  } else {
    const decoded = type.toObject(type.decode(new Uint8Array(await res.arrayBuffer())), { longs: Number });
    partial = decoded.partialSuccess as Record<string, unknown> | undefined;
  }
  if (partial === undefined) return { status: 200 };
  return { status: 200, rejected: Number(partial[field] ?? 0), errorMessage: partial.errorMessage };
}

const parse = (text: string | null) => (text === null ? null : (JSON.parse(text) as unknown));

/** Everything a server stored of trace `traceId`, JSON columns parsed. */
function storedTrace(encoding: OtlpEncoding, traceId: string) {
  const { traceStore } = servers[encoding].server;
  const groupOf = (table: 'spans' | 'log_records') =>
    databases[encoding]
      .prepare(
        `SELECT r.attributes AS resource, r.dropped_attributes_count AS resourceDropped, r.schema_url AS resourceSchema,
           c.name AS scope, c.version, c.attributes AS scopeAttributes, c.schema_url AS scopeSchema
         FROM ${table} x JOIN traces t ON t.trace_no = x.trace_no
           JOIN resources r ON r.id = x.resource_id JOIN scopes c ON c.id = x.scope_id
         WHERE t.trace_id = ? ORDER BY x.id`,
      )
      .all(traceId)
      .map((row) => ({
        ...row,
        resource: parse(row.resource as string),
        scopeAttributes: parse(row.scopeAttributes as string),
      }));
  return {
    spans: traceStore.listSpans(traceId),
    spanGroups: groupOf('spans'),
    logs: traceStore.listLogs(traceId),
    logGroups: groupOf('log_records'),
  };
}

let nextTrace = 0;
/** A trace ID no earlier case used (IDs are not part of the property; shrinking reruns cases). */
function uniqueTraceId(): string {
  nextTrace++;
  return `${(0x5eed0000 + (process.pid % 0xffff)).toString(16).padStart(8, '0')}${nextTrace.toString(16).padStart(24, '0')}`;
}
const spanIdOf = (n: number) => (n + 1).toString(16).padStart(16, '0');

/** Posts `bodies` of one request to both servers; the answers and what they stored must agree. */
async function expectAgreement(
  signal: OtlpSignal,
  bodies: Record<OtlpEncoding, Uint8Array>,
  traceIds: string[],
) {
  const json = await post(signal, 'json', bodies.json);
  const protobuf = await post(signal, 'protobuf', bodies.protobuf);
  expect(protobuf).toEqual(json);
  for (const traceId of traceIds)
    expect(storedTrace('protobuf', traceId)).toEqual(storedTrace('json', traceId));
}

// ---------------------------------------------------------------------------------------------
// OpenTelemetry's serializers.

/** Any JavaScript value the serializers encode the same way in both encodings. */
const leaf = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 6 }), // any code point, unpaired surrogates included
  fc.string({ maxLength: 6 }),
  fc.boolean(),
  fc.maxSafeInteger(),
  // An integer-valued double past 2^53 is an `intValue` whose JSON text (JavaScript's shortest
  // form) is not the integer the protobuf serializer writes: not the same request in both.
  fc
    .double({ noNaN: true, noDefaultInfinity: true })
    .filter((d) => !Number.isInteger(d) || Number.isSafeInteger(d)),
  fc.uint8Array({ maxLength: 6 }),
  fc.constant(null),
);

const { value: shallow } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 3 }),
  ),
}));

/** A leaf inside 0–3 containers, or inside a few levels around the nesting limit. */
const deep = fc
  .tuple(
    fc.oneof(
      fc.integer({ min: 0, max: 3 }),
      fc.integer({ min: MAX_ANY_VALUE_DEPTH - 2, max: MAX_ANY_VALUE_DEPTH + 2 }),
    ),
    fc.array(fc.boolean(), { minLength: MAX_ANY_VALUE_DEPTH + 2, maxLength: MAX_ANY_VALUE_DEPTH + 2 }),
    fc.oneof(leaf, fc.constant([]), fc.constant({})),
  )
  .map(([levels, arrays, inner]) => {
    let value: unknown = inner;
    for (let i = 0; i < levels; i++) value = arrays[i] ? [value] : { level: value };
    return value;
  });

const attributes: fc.Arbitrary<SdkAttributes> = fc.dictionary(
  fc.string({ unit: 'binary', maxLength: 5 }),
  fc.oneof({ arbitrary: shallow, weight: 3 }, { arbitrary: deep, weight: 1 }),
  { maxKeys: 3 },
);

const NOW = 1_763_740_800;
const hrTime: fc.Arbitrary<HrTime> = fc.tuple(
  fc.oneof(
    { arbitrary: fc.integer({ min: NOW, max: NOW + 5 }), weight: 12 },
    // Up to 2^64 - 1 ns: past 2^63 - 1 ns, the store cannot hold the time.
    { arbitrary: fc.integer({ min: 0, max: 18_446_744_072 }), weight: 1 },
  ),
  fc.integer({ min: 0, max: 999_999_999 }),
);

const resource = fc.record({ attributes });
const scopeOf = (name: string) =>
  fc.record({ name: fc.constant(name), version: fc.string({ maxLength: 3 }), attributes });

const spanModel = fc.record({
  name: fc.oneof(fc.constant('chat'), fc.string({ unit: 'binary', maxLength: 3 })),
  attributes,
  startTime: hrTime,
  endTime: hrTime,
  events: fc.array(fc.record({ name: fc.string({ maxLength: 3 }), time: hrTime, attributes }), {
    maxLength: 2,
  }),
  links: fc.array(fc.record({ attributes }), { maxLength: 2 }),
});

const logModel = fc.record({
  body: fc.option(fc.oneof(shallow, deep), { nil: undefined }),
  attributes,
  hrTime,
  severityNumber: fc.integer({ min: 0, max: 26 }),
});

/** One or two resources, each with one or two scopes (named apart: see below), each with records. */
const groups = <T>(record: fc.Arbitrary<T>) =>
  fc.array(
    fc.record({
      resource,
      // The JSON serializer groups scopes by name and version, the protobuf one by object: scopes
      // named alike would be one scope in JSON and two in protobuf.
      scopes: fc.tuple(
        fc.record({ scope: scopeOf('scope-a'), records: fc.array(record, { minLength: 1, maxLength: 3 }) }),
        fc.option(
          fc.record({ scope: scopeOf('scope-b'), records: fc.array(record, { minLength: 1, maxLength: 2 }) }),
          {
            nil: undefined,
          },
        ),
      ),
    }),
    { minLength: 1, maxLength: 2 },
  );

describe('OTLP requests encoded by OpenTelemetry as JSON and as protobuf', () => {
  it('are stored identically or refused identically: spans', async () => {
    await fc.assert(
      fc.asyncProperty(groups(spanModel), async (model) => {
        const spans: object[] = [];
        const traceIds: string[] = [];
        for (const { resource, scopes } of model) {
          for (const group of scopes) {
            if (group === undefined) continue;
            for (const span of group.records) {
              const traceId = uniqueTraceId();
              traceIds.push(traceId);
              spans.push(
                sdkSpan({
                  ...span,
                  traceId,
                  spanId: spanIdOf(spans.length),
                  resource,
                  scope: group.scope,
                  links: span.links.map((l, i) => ({ ...l, traceId: uniqueTraceId(), spanId: spanIdOf(i) })),
                }),
              );
            }
          }
        }
        const bodies = { json: encodeSdkSpans(spans, 'json'), protobuf: encodeSdkSpans(spans, 'protobuf') };
        await expectAgreement('traces', bodies, traceIds);
      }),
      { numRuns: 150 },
    );
  });

  it('are stored identically or refused identically: log records', async () => {
    await fc.assert(
      fc.asyncProperty(groups(logModel), async (model) => {
        const records: object[] = [];
        const traceIds: string[] = [];
        for (const { resource, scopes } of model) {
          for (const group of scopes) {
            if (group === undefined) continue;
            for (const record of group.records) {
              const traceId = uniqueTraceId();
              traceIds.push(traceId);
              records.push(
                sdkLogRecord({
                  ...record,
                  traceId,
                  spanId: spanIdOf(records.length),
                  resource,
                  scope: group.scope,
                }),
              );
            }
          }
        }
        const bodies = {
          json: encodeSdkLogRecords(records, 'json'),
          protobuf: encodeSdkLogRecords(records, 'protobuf'),
        };
        await expectAgreement('logs', bodies, traceIds);
      }),
      { numRuns: 150 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// protobufjs, for 64-bit integers and non-finite doubles.

const INT64_EDGES = [
  -(2n ** 63n),
  -(2n ** 63n) + 1n,
  -(2n ** 53n) - 1n,
  -(2n ** 53n),
  -1n,
  0n,
  1n,
  2n ** 53n - 1n,
  2n ** 53n,
  2n ** 53n + 1n,
  1152921504606846977n,
  2n ** 63n - 1n,
];

/** An `AnyValue` in protobufjs `fromObject` form (64-bit integers as decimal strings). */
const { value: protoValue } = fc.letrec<{ value: Record<string, unknown> }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc
      .oneof(fc.constantFrom(...INT64_EDGES), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }))
      .map((n) => ({ intValue: n.toString() })),
    fc
      .oneof(
        fc.constantFrom(
          Number.NaN,
          Number.POSITIVE_INFINITY,
          Number.NEGATIVE_INFINITY,
          -0,
          Number.MIN_VALUE,
          Number.MAX_VALUE,
        ),
        fc.double(),
      )
      .map((d) => ({ doubleValue: d })),
    fc.string({ maxLength: 5 }).map((s) => ({ stringValue: s })),
    fc.boolean().map((b) => ({ boolValue: b })),
    fc.constant({}),
    fc.array(tie('value'), { maxLength: 3 }).map((values) => ({ arrayValue: { values } })),
    fc
      .array(fc.record({ key: fc.string({ maxLength: 4 }), value: tie('value') }), { maxLength: 3 })
      .map((values) => ({ kvlistValue: { values } })),
  ),
}));
const protoAttributes = fc.array(fc.record({ key: fc.string({ maxLength: 4 }), value: protoValue }), {
  maxLength: 3,
});
const fixed64 = fc.oneof(
  fc.bigInt({ min: 1_763_740_800_000_000_000n, max: 1_763_740_810_000_000_000n }),
  fc.constantFrom(0n, 2n ** 53n + 1n, 2n ** 63n - 1n, 2n ** 63n, 2n ** 64n - 1n),
);

/** JSON of a protobufjs `toObject` result, IDs as hex and, when asked, 64-bit integers as bare numbers. */
function otlpJson(object: unknown, bareIntegers: boolean): Uint8Array {
  const raw = (text: string) => (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON(text);
  const text = JSON.stringify(object, (key, value: unknown) => {
    if ((key === 'traceId' || key === 'spanId' || key === 'parentSpanId') && typeof value === 'string') {
      return Buffer.from(value, 'base64').toString('hex');
    }
    if (bareIntegers && typeof value === 'string' && (key === 'intValue' || key.endsWith('UnixNano')))
      return raw(value);
    return value;
  });
  return Buffer.from(text);
}

const TO_OBJECT = { longs: String, enums: Number, bytes: String, json: true } as const;

describe('OTLP requests encoded by protobufjs as JSON and as protobuf', () => {
  it('are stored identically or refused identically: 64-bit integers, as strings or bare numbers, and any double', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            attributes: protoAttributes,
            startTimeUnixNano: fixed64,
            endTimeUnixNano: fixed64,
            events: fc.array(fc.record({ timeUnixNano: fixed64, attributes: protoAttributes }), {
              maxLength: 1,
            }),
          }),
          { minLength: 1, maxLength: 3 },
        ),
        protoAttributes,
        fc.option(protoValue, { nil: undefined }),
        fc.boolean(),
        async (spans, resourceAttributes, logBody, bareIntegers) => {
          const traceIds = spans.map(() => uniqueTraceId());
          const envelope = (records: string, list: unknown[]) => ({
            [`resource${records === 'spans' ? 'Spans' : 'Logs'}`]: [
              {
                resource: { attributes: resourceAttributes },
                [`scope${records === 'spans' ? 'Spans' : 'Logs'}`]: [
                  { scope: { name: 's' }, [records]: list },
                ],
              },
            ],
          });
          const traces = envelope(
            'spans',
            spans.map((s, i) => ({
              ...s,
              traceId: Buffer.from(traceIds[i]!, 'hex'),
              spanId: Buffer.from(spanIdOf(i), 'hex'),
              name: 'op',
              startTimeUnixNano: s.startTimeUnixNano.toString(),
              endTimeUnixNano: s.endTimeUnixNano.toString(),
              events: s.events.map((e) => ({ ...e, name: 'e', timeUnixNano: e.timeUnixNano.toString() })),
            })),
          );
          const logs = envelope(
            'logRecords',
            spans.map((s, i) => ({
              traceId: Buffer.from(traceIds[i]!, 'hex'),
              timeUnixNano: s.startTimeUnixNano.toString(),
              attributes: s.attributes,
              ...(logBody === undefined ? {} : { body: logBody }),
            })),
          );
          for (const [signal, request, type] of [
            ['traces', traces, otlpProto.ExportTraceServiceRequest],
            ['logs', logs, otlpProto.ExportLogsServiceRequest],
          ] as const) {
            const protobuf = type.encode(type.fromObject(request)).finish();
            const json = otlpJson(type.toObject(type.decode(protobuf), TO_OBJECT), bareIntegers);
            await expectAgreement(signal, { json, protobuf }, traceIds);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('agree on the JSON the property test compares: stored 64-bit integers are the exact decimals sent', async () => {
    const traceId = uniqueTraceId();
    const attributes: KeyValue[] = INT64_EDGES.map((n, i) => ({
      key: `i${i}`,
      value: { intValue: n.toString() },
    }));
    const type = otlpProto.ExportTraceServiceRequest;
    const request = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: Buffer.from(traceId, 'hex'),
                  spanId: Buffer.from(spanIdOf(0), 'hex'),
                  name: 'op',
                  attributes,
                },
              ],
            },
          ],
        },
      ],
    };
    const protobuf = type.encode(type.fromObject(request)).finish();
    const json = otlpJson(type.toObject(type.decode(protobuf), TO_OBJECT), true);
    expect(Buffer.from(json).toString()).toContain('"intValue":-9223372036854775808');
    await expectAgreement('traces', { json, protobuf }, [traceId]);
    expect(storedTrace('json', traceId).spans[0]?.attributes).toEqual(attributes);
  });
});
