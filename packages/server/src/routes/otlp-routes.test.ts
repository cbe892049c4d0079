import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_OTLP_BODY_BYTES } from '../limits.js';
import { otlpProto } from '../otlp/otlp-proto.js';
import {
  encodeLogsProto,
  encodeTracesProto,
  jsonSpan,
  logsRequest,
  newSpanId,
  newTraceId,
  str,
  tracesRequest,
} from '../test-support/otlp-fixtures.js';
import { useServer } from '../test-support/server-fixture.js';

const TRACES = '/api/v1/otlp/v1/traces';
const LOGS = '/api/v1/otlp/v1/logs';
const fx = useServer();

function post(path: string, body: NonNullable<RequestInit['body']>, headers: Record<string, string>) {
  return fx.request(path, { method: 'POST', key: fx.server.keys.tracing, headers, body });
}

async function spanCount(traceId: string): Promise<number | undefined> {
  const res = await fx.receipt(traceId);
  if (res.status === 404) return undefined;
  return ((await res.json()) as { spanCount: number }).spanCount;
}

describe('OTLP trace ingest', () => {
  it('stores a JSON batch and answers an empty export response', async () => {
    const traceId = newTraceId();
    const res = await fx.postJson(TRACES, tracesRequest([jsonSpan(traceId), jsonSpan(traceId)]));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual({});
    expect(await spanCount(traceId)).toBe(2);
  });

  it('stores a protobuf batch, gzip-encoded, and answers in protobuf', async () => {
    const traceId = newTraceId();
    const body = gzipSync(encodeTracesProto(tracesRequest([jsonSpan(traceId), jsonSpan('00'.repeat(16))])));
    const res = await post(TRACES, body, {
      'content-type': 'application/x-protobuf',
      'content-encoding': 'gzip',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-protobuf');
    const answer = otlpProto.ExportTraceServiceResponse.toObject(
      otlpProto.ExportTraceServiceResponse.decode(new Uint8Array(await res.arrayBuffer())),
      { longs: Number },
    );
    expect(answer.partialSuccess.rejectedSpans).toBe(1);
    expect(answer.partialSuccess.errorMessage).toBe('1 spans rejected: invalid trace ID (1)');
    expect(await spanCount(traceId)).toBe(1);
  });

  it('keeps attribute values typed as sent, with events and links', async () => {
    const traceId = newTraceId();
    const attributes = [
      str('s', 'text'),
      { key: 'i', value: { intValue: 42 } },
      { key: 'i2', value: { intValue: '-9007199254740993' } },
      { key: 'd', value: { doubleValue: 1.5 } },
      { key: 'b', value: { boolValue: false } },
      { key: 'bytes', value: { bytesValue: 'AAEC' } },
      { key: 'arr', value: { arrayValue: { values: [{ stringValue: 'a' }, { intValue: '1' }] } } },
      { key: 'kv', value: { kvlistValue: { values: [{ key: 'k', value: { boolValue: true } }] } } },
      { key: 'empty', value: {} },
    ];
    const link = { traceId: newTraceId(), spanId: newSpanId(), attributes: [str('l', 'x')] };
    const event = {
      timeUnixNano: '1763740800100000000',
      name: 'exception',
      attributes: [str('exception.type', 'E')],
    };
    const spanId = newSpanId();
    await fx.postJson(
      TRACES,
      tracesRequest([jsonSpan(traceId, { spanId, attributes, events: [event], links: [link] })]),
    );
    const [span] = fx.server.traceStore.listSpans(traceId);
    expect(span?.spanId).toBe(spanId);
    expect(span?.attributes).toEqual([
      str('s', 'text'),
      { key: 'i', value: { intValue: '42' } },
      { key: 'i2', value: { intValue: '-9007199254740993' } },
      { key: 'd', value: { doubleValue: 1.5 } },
      { key: 'b', value: { boolValue: false } },
      { key: 'bytes', value: { bytesValue: 'AAEC' } },
      { key: 'arr', value: { arrayValue: { values: [{ stringValue: 'a' }, { intValue: '1' }] } } },
      { key: 'kv', value: { kvlistValue: { values: [{ key: 'k', value: { boolValue: true } }] } } },
      { key: 'empty', value: {} },
    ]);
    expect(span?.startTimeUnixNano).toBe('1763740800000000000');
    expect(span?.events).toEqual([{ ...event, droppedAttributesCount: 0 }]);
    expect(span?.links).toEqual([{ ...link, traceState: '', flags: 0, droppedAttributesCount: 0 }]);
  });

  const refusals: Array<[string, Record<string, unknown>, string]> = [
    ['a trace ID of 30 hex characters', { traceId: 'ab'.repeat(15) }, 'invalid trace ID'],
    ['an all-zero trace ID', { traceId: '0'.repeat(32) }, 'invalid trace ID'],
    ['a trace ID that is not hex', { traceId: 'zz'.repeat(16) }, 'invalid trace ID'],
    ['a span ID of 18 hex characters', { spanId: 'ab'.repeat(9) }, 'invalid span ID'],
    ['an all-zero span ID', { spanId: '0'.repeat(16) }, 'invalid span ID'],
    ['a missing span ID', { spanId: undefined }, 'invalid span ID'],
    ['a parent span ID of the wrong length', { parentSpanId: 'abc' }, 'invalid parent span ID'],
    ['a missing name', { name: undefined }, 'missing name'],
    ['an empty name', { name: '' }, 'missing name'],
    ['attributes that are not a list', { attributes: { a: 1 } }, 'invalid attributes'],
    [
      'an attribute value of the wrong type',
      { attributes: [{ key: 'a', value: { intValue: 'x' } }] },
      'invalid attribute value',
    ],
    ['a negative timestamp', { startTimeUnixNano: -1 }, 'invalid timestamp'],
    ['an unknown span kind', { kind: 42 }, 'invalid span kind'],
  ];

  it.each(refusals)(
    'refuses a span with %s and stores the rest of the batch',
    async (_what, overrides, reason) => {
      const traceId = newTraceId();
      const bad = { ...jsonSpan(traceId), ...overrides };
      const res = await fx.postJson(TRACES, tracesRequest([jsonSpan(traceId), bad, jsonSpan(traceId)]));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        partialSuccess: { rejectedSpans: 1, errorMessage: `1 spans rejected: ${reason} (1)` },
      });
      expect(await spanCount(traceId)).toBe(2);
    },
  );

  it('counts a batch of only invalid spans as rejected and stores nothing', async () => {
    const traceId = newTraceId();
    const res = await fx.postJson(
      TRACES,
      tracesRequest([jsonSpan(traceId, { name: '' }), jsonSpan(traceId, { spanId: 'x' })]),
    );
    expect(await res.json()).toEqual({
      partialSuccess: {
        rejectedSpans: 2,
        errorMessage: '2 spans rejected: missing name (1), invalid span ID (1)',
      },
    });
    expect(await spanCount(traceId)).toBeUndefined();
  });

  it('refuses a span or log record whose time the store cannot hold (over 2^63 - 1 ns), keeping the rest', async () => {
    const traceId = newTraceId();
    const res = await fx.postJson(
      TRACES,
      tracesRequest([
        jsonSpan(traceId, { startTimeUnixNano: '18446744073709551615' }),
        jsonSpan(traceId, { endTimeUnixNano: 1e19 }),
        jsonSpan(traceId, { events: [{ name: 'e', timeUnixNano: '9223372036854775808' }] }),
        jsonSpan(traceId, { endTimeUnixNano: '9223372036854775807' }),
        jsonSpan(traceId, { startTimeUnixNano: '00000000000000000000001' }),
      ]),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      partialSuccess: { rejectedSpans: 3, errorMessage: '3 spans rejected: invalid timestamp (3)' },
    });
    expect(await spanCount(traceId)).toBe(2);

    const logs = await fx.postJson(
      LOGS,
      logsRequest([
        { traceId, spanId: newSpanId(), timeUnixNano: '18446744073709551615', body: { stringValue: 'late' } },
        { traceId, spanId: newSpanId(), timeUnixNano: '1', body: { stringValue: 'kept' } },
      ]),
    );
    expect(logs.status).toBe(200);
    expect(await logs.json()).toEqual({
      partialSuccess: {
        rejectedLogRecords: 1,
        errorMessage: '1 log records rejected: invalid timestamp (1)',
      },
    });
  });

  it('stores 10,000 spans of one request', async () => {
    const traceId = newTraceId();
    const spans = Array.from({ length: 10_000 }, () => jsonSpan(traceId));
    const res = await fx.postJson(TRACES, tracesRequest(spans));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    expect(await spanCount(traceId)).toBe(10_000);
  });

  it('treats a re-sent span as the same span, not a new one', async () => {
    const traceId = newTraceId();
    const span = jsonSpan(traceId);
    await fx.postJson(TRACES, tracesRequest([span]));
    await fx.postJson(TRACES, tracesRequest([{ ...span, name: 'renamed' }]));
    const res = await fx.receipt(traceId);
    const receipt = (await res.json()) as { spanCount: number; revision: number };
    expect(receipt.spanCount).toBe(1);
    expect(receipt.revision).toBe(2);
  });
});

describe('OTLP ingest: bad requests', () => {
  const json = { 'content-type': 'application/json' };
  const proto = { 'content-type': 'application/x-protobuf' };
  const goodProto = () => encodeTracesProto(tracesRequest([jsonSpan(newTraceId())]));
  const cases: Array<
    [
      string,
      () => { body: NonNullable<RequestInit['body']>; headers: Record<string, string> },
      number,
      string,
    ]
  > = [
    [
      'truncated protobuf',
      () => ({ body: goodProto().subarray(0, 40), headers: proto }),
      400,
      'not a valid protobuf ExportTraceServiceRequest',
    ],
    ['invalid JSON', () => ({ body: '{"resourceSpans": [', headers: json }), 400, 'not valid JSON'],
    [
      'JSON of the wrong shape (list)',
      () => ({ body: '[1,2]', headers: json }),
      400,
      'not an OTLP ExportTraceServiceRequest',
    ],
    [
      'JSON with resourceSpans a string',
      () => ({ body: '{"resourceSpans":"x"}', headers: json }),
      400,
      'at resourceSpans',
    ],
    [
      'JSON with spans not objects',
      () => ({ body: '{"resourceSpans":[{"scopeSpans":[{"spans":[1]}]}]}', headers: json }),
      400,
      'not an OTLP',
    ],
    [
      'a text/plain content type',
      () => ({ body: '{}', headers: { 'content-type': 'text/plain' } }),
      415,
      'Content-Type must be',
    ],
    ['no content type', () => ({ body: '{}', headers: {} }), 415, 'Content-Type must be'],
    [
      'a br content encoding',
      () => ({ body: '{}', headers: { ...json, 'content-encoding': 'br' } }),
      415,
      'Content-Encoding',
    ],
    [
      'gzip that is not gzip',
      () => ({ body: '{"resourceSpans":[]}', headers: { ...json, 'content-encoding': 'gzip' } }),
      400,
      'not valid gzip',
    ],
    [
      'a declared length over the limit',
      () => ({ body: '{}', headers: { ...json, 'content-length': String(MAX_OTLP_BODY_BYTES + 1) } }),
      413,
      'exceeds',
    ],
    [
      'a body over the limit',
      () => ({ body: Buffer.alloc(MAX_OTLP_BODY_BYTES + 1, 0x20), headers: json }),
      413,
      'exceeds',
    ],
    [
      'gzip that inflates past the limit',
      () => ({
        body: gzipSync(Buffer.alloc(MAX_OTLP_BODY_BYTES + 1, 0x20)),
        headers: { ...json, 'content-encoding': 'gzip' },
      }),
      413,
      'after decompression',
    ],
  ];

  it.each(cases)(
    'answers %s with its status and a JSON error, and keeps serving',
    async (_what, make, status, text) => {
      const { body, headers } = make();
      const res = await post(TRACES, body, headers);
      expect(res.status).toBe(status);
      const answer = (await res.json()) as { error: { code: string; message: string } };
      expect(answer.error.message).toContain(text);
      // The server keeps serving: a valid request right after is stored.
      const traceId = newTraceId();
      expect((await fx.postJson(TRACES, tracesRequest([jsonSpan(traceId)]))).status).toBe(200);
      expect(await spanCount(traceId)).toBe(1);
    },
  );

  it('stores nothing from a request answered 400, even its valid spans', async () => {
    const traceId = newTraceId();
    const request = tracesRequest([jsonSpan(traceId)]);
    (request.resourceSpans as unknown[]).push({ scopeSpans: 'not a list' });
    const res = await fx.postJson(TRACES, request);
    expect(res.status).toBe(400);
    expect(await spanCount(traceId)).toBeUndefined();
  });

  it('refuses the same bad bodies on the log route', async () => {
    const res = await post(LOGS, '{"resourceLogs": 3}', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain(
      'ExportLogsServiceRequest',
    );
  });
});

describe('OTLP log ingest', () => {
  it('stores correlated and uncorrelated log records, refusing invalid IDs', async () => {
    const traceId = newTraceId();
    const spanId = newSpanId();
    await fx.postJson(TRACES, tracesRequest([jsonSpan(traceId, { spanId })]));
    const res = await fx.postJson(
      LOGS,
      logsRequest([
        {
          traceId,
          spanId,
          timeUnixNano: '1763740800500000000',
          body: { stringValue: 'hi' },
          attributes: [str('gen_ai.output.messages', '[]')],
        },
        { body: { stringValue: 'no trace' } },
        { traceId: 'abc', body: { stringValue: 'bad' } },
        { traceId, spanId: '00'.repeat(8) },
        { spanId, body: { stringValue: 'span without trace' } },
      ]),
    );
    expect(await res.json()).toEqual({
      partialSuccess: {
        rejectedLogRecords: 3,
        errorMessage:
          '3 log records rejected: invalid trace ID (1), invalid span ID (1), span ID without trace ID (1)',
      },
    });
    const receipt = (await (await fx.receipt(traceId)).json()) as {
      revision: number;
      fields: Record<string, boolean>;
    };
    expect(receipt.revision).toBe(2);
    expect(receipt.fields.output).toBe(true);
  });

  it('accepts protobuf log requests', async () => {
    const traceId = newTraceId();
    const body = encodeLogsProto(
      logsRequest([{ traceId, spanId: newSpanId(), severityNumber: 9, body: { stringValue: 'x' } }]),
    );
    const res = await post(LOGS, body, { 'content-type': 'application/x-protobuf' });
    expect(res.status).toBe(200);
    const answer = otlpProto.ExportLogsServiceResponse.decode(new Uint8Array(await res.arrayBuffer()));
    expect(otlpProto.ExportLogsServiceResponse.toObject(answer)).toEqual({});
    expect((await fx.receipt(traceId)).status).toBe(200);
  });
});
