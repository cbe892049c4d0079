import { describe, expect, it } from 'vitest';
import type { OtlpEncoding } from '../ingest/decode-request.js';
import { MAX_ANY_VALUE_DEPTH } from '../limits.js';
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
import {
  encodeSdkLogRecords,
  encodeSdkSpans,
  nested,
  type SdkResource,
  type SdkScope,
  sdkLogRecord,
  sdkSpan,
} from '../test-support/sdk-records.js';
import { useServer } from '../test-support/server-fixture.js';

const TRACES = '/api/v1/otlp/v1/traces';
const LOGS = '/api/v1/otlp/v1/logs';
const CONTENT_TYPE: Record<OtlpEncoding, string> = {
  json: 'application/json',
  protobuf: 'application/x-protobuf',
};
const fx = useServer();

function post(path: string, body: string | Uint8Array, encoding: OtlpEncoding) {
  return fx.request(path, {
    method: 'POST',
    key: fx.server.keys.tracing,
    headers: { 'content-type': CONTENT_TYPE[encoding] },
    body,
  });
}

/** The export response as `{ status, partialSuccess? }`, from either encoding. */
async function answerOf(res: Response, path: string): Promise<{ status: number; partialSuccess?: unknown }> {
  if (res.status !== 200) return { status: res.status };
  if (res.headers.get('content-type')?.includes('json')) {
    return { status: 200, ...((await res.json()) as object) };
  }
  const type = path === TRACES ? otlpProto.ExportTraceServiceResponse : otlpProto.ExportLogsServiceResponse;
  const answer = type.toObject(type.decode(new Uint8Array(await res.arrayBuffer())), { longs: Number });
  const partial = answer.partialSuccess as Record<string, unknown> | undefined;
  if (partial === undefined) return { status: 200 };
  // Protobuf leaves out a count of 0; the JSON answer writes it.
  const field = path === TRACES ? 'rejectedSpans' : 'rejectedLogRecords';
  return { status: 200, partialSuccess: { [field]: 0, ...partial } };
}

const plainResource: SdkResource = { attributes: { 'service.name': 'plain-app' } };
const plainScope: SdkScope = { name: 'plain', version: '1.0.0' };

type Position = 'resource' | 'scope' | 'span' | 'event' | 'link' | 'log attributes' | 'log body';
const POSITIONS: Position[] = ['resource', 'scope', 'span', 'event', 'link', 'log attributes', 'log body'];

/**
 * A request of `plain` valid records on trace `plainTrace` and one more record on trace `deepTrace`
 * holding `value` at `position` (a resource or scope of its own when it is there), encoded by
 * OpenTelemetry's serializer of `encoding`.
 */
function requestWith(
  position: Position,
  value: unknown,
  encoding: OtlpEncoding,
  plain: number,
  plainTrace: string,
  deepTrace: string,
): { path: string; body: Uint8Array } {
  const resource = position === 'resource' ? { attributes: { deep: value } } : plainResource;
  const scope = position === 'scope' ? { name: 'deep', attributes: { deep: value } } : plainScope;
  if (position === 'log attributes' || position === 'log body') {
    const records = Array.from({ length: plain }, () =>
      sdkLogRecord({
        traceId: plainTrace,
        spanId: newSpanId(),
        resource: plainResource,
        scope: plainScope,
        body: 'plain',
      }),
    );
    records.push(
      sdkLogRecord({
        traceId: deepTrace,
        spanId: newSpanId(),
        resource,
        scope,
        ...(position === 'log body' ? { body: value } : { body: 'x', attributes: { deep: value } }),
      }),
    );
    return { path: LOGS, body: encodeSdkLogRecords(records, encoding) };
  }
  const spans = Array.from({ length: plain }, () =>
    sdkSpan({ traceId: plainTrace, spanId: newSpanId(), resource: plainResource, scope: plainScope }),
  );
  const deep = { deep: value };
  spans.push(
    sdkSpan({
      traceId: deepTrace,
      spanId: newSpanId(),
      resource,
      scope,
      ...(position === 'span' ? { attributes: deep } : {}),
      ...(position === 'event'
        ? { events: [{ name: 'e', time: [1_763_740_800, 5], attributes: deep }] }
        : {}),
      ...(position === 'link'
        ? { links: [{ traceId: newTraceId(), spanId: newSpanId(), attributes: deep }] }
        : {}),
    }),
  );
  return { path: TRACES, body: encodeSdkSpans(spans, encoding) };
}

/** How many records of `traceId` the store holds (spans, or log records for the log route). */
function storedOf(path: string, traceId: string): number {
  return path === TRACES
    ? fx.server.traceStore.listSpans(traceId).length
    : fx.server.traceStore.listLogs(traceId).length;
}

describe('values nested deeply, in JSON and in protobuf alike', () => {
  it.each(['json', 'protobuf'] as const)(
    'stores the 501 spans of the issue example in %s: 500 plain spans and one whose event attribute nests 32 kvlist levels',
    async (encoding) => {
      const plainTrace = newTraceId();
      const deepTrace = newTraceId();
      const { path, body } = requestWith('event', nested(32, 'kvlist'), encoding, 500, plainTrace, deepTrace);
      const res = await post(path, body, encoding);
      expect(await answerOf(res, path)).toEqual({ status: 200 });
      expect(storedOf(path, plainTrace)).toBe(500);
      expect(storedOf(path, deepTrace)).toBe(1);
    },
  );

  const cases = POSITIONS.flatMap((position) =>
    (['json', 'protobuf'] as const).flatMap((encoding) =>
      (['kvlist', 'array'] as const).map((container) => [position, encoding, container] as const),
    ),
  );

  it.each(cases)(
    'refuses only the record holding a value nested past the limit at the %s position (%s, %s), and stores one at the limit',
    async (position, encoding, container) => {
      const what = position.startsWith('log') ? 'log records' : 'spans';
      const reason =
        position === 'resource' || position === 'scope'
          ? `invalid ${position}: attribute value nested too deeply`
          : 'attribute value nested too deeply';

      const plainTrace = newTraceId();
      const deepTrace = newTraceId();
      const past = requestWith(
        position,
        nested(MAX_ANY_VALUE_DEPTH + 1, container),
        encoding,
        20,
        plainTrace,
        deepTrace,
      );
      const rejectedField = what === 'spans' ? 'rejectedSpans' : 'rejectedLogRecords';
      expect(await answerOf(await post(past.path, past.body, encoding), past.path)).toEqual({
        status: 200,
        partialSuccess: { [rejectedField]: 1, errorMessage: `1 ${what} rejected: ${reason} (1)` },
      });
      expect(storedOf(past.path, plainTrace)).toBe(20);
      expect(storedOf(past.path, deepTrace)).toBe(0);

      const atLimitTrace = newTraceId();
      const at = requestWith(
        position,
        nested(MAX_ANY_VALUE_DEPTH, container),
        encoding,
        2,
        newTraceId(),
        atLimitTrace,
      );
      expect(await answerOf(await post(at.path, at.body, encoding), at.path)).toEqual({ status: 200 });
      expect(storedOf(at.path, atLimitTrace)).toBe(1);
    },
  );

  it('counts an empty value past the limit as nested past it, in both encodings', async () => {
    // A kvlist entry without a value holds the empty value, one level below the kvlist.
    let json: unknown = { kvlistValue: { values: [{ key: 'empty' }] } };
    for (let i = 0; i < MAX_ANY_VALUE_DEPTH; i++) json = { arrayValue: { values: [json] } };
    const handWritten = (traceId: string) =>
      JSON.stringify(tracesRequest([jsonSpan(traceId, { attributes: [{ key: 'deep', value: json }] })]));
    // OpenTelemetry's serializers write the entry's value as an empty AnyValue.
    const serialized = (traceId: string, encoding: OtlpEncoding) =>
      encodeSdkSpans(
        [
          sdkSpan({
            traceId,
            spanId: newSpanId(),
            resource: plainResource,
            scope: plainScope,
            attributes: { deep: nested(MAX_ANY_VALUE_DEPTH, 'array', { empty: null }) },
          }),
        ],
        encoding,
      );
    for (const [encoding, body] of [
      ['json', handWritten],
      ['json', (t: string) => serialized(t, 'json')],
      ['protobuf', (t: string) => serialized(t, 'protobuf')],
    ] as const) {
      const traceId = newTraceId();
      expect(await answerOf(await post(TRACES, body(traceId), encoding), TRACES)).toEqual({
        status: 200,
        partialSuccess: {
          rejectedSpans: 1,
          errorMessage: '1 spans rejected: attribute value nested too deeply (1)',
        },
      });
    }
  });
});

/** The stored value of the span attribute `key` of the only span of `traceId`. */
function storedAttribute(traceId: string, key: string): unknown {
  const [span] = fx.server.traceStore.listSpans(traceId);
  return span?.attributes.find((a) => a.key === key)?.value;
}

/** `request` as JSON text with each `"@raw:<text>"` string written as the bare `<text>`. */
function withRawNumbers(request: unknown): string {
  return JSON.stringify(request).replace(/"@raw:([^"]*)"/g, '$1');
}

describe('64-bit integers in OTLP JSON', () => {
  const edges = [
    '1152921504606846977',
    '9007199254740993',
    '-9007199254740993',
    '9223372036854775807',
    '-9223372036854775808',
  ];

  it.each([
    ['an ASCII body', ''],
    ['a body with other text', 'é'],
  ])('keeps every intValue sent as a JSON number exactly as sent, in %s', async (_what, text) => {
    const traceId = newTraceId();
    const attributes = [
      ...edges.map((digits, i) => ({ key: `n${i}`, value: { intValue: `@raw:${digits}` } })),
      str('text', text),
    ];
    const event = {
      name: 'e',
      timeUnixNano: '1763740800000000001',
      attributes: [{ key: 'n', value: { intValue: '@raw:1152921504606846977' } }],
    };
    const res = await post(
      TRACES,
      withRawNumbers(tracesRequest([jsonSpan(traceId, { attributes, events: [event] })])),
      'json',
    );
    expect(await answerOf(res, TRACES)).toEqual({ status: 200 });
    edges.forEach((digits, i) => {
      expect(storedAttribute(traceId, `n${i}`)).toEqual({ intValue: digits });
    });
    const [span] = fx.server.traceStore.listSpans(traceId);
    expect(span?.events[0]?.attributes).toEqual([{ key: 'n', value: { intValue: '1152921504606846977' } }]);
  });

  it('keeps a timestamp sent as a JSON number past 2^53 exactly', async () => {
    const traceId = newTraceId();
    const span = jsonSpan(traceId, {
      startTimeUnixNano: '@raw:1763740800000000001',
      endTimeUnixNano: '@raw:1.763740801000000003e18',
    });
    const res = await post(TRACES, withRawNumbers(tracesRequest([span])), 'json');
    expect(await answerOf(res, TRACES)).toEqual({ status: 200 });
    const [stored] = fx.server.traceStore.listSpans(traceId);
    expect(stored?.startTimeUnixNano).toBe('1763740800000000001');
    expect(stored?.endTimeUnixNano).toBe('1763740801000000003');
  });

  it.each([
    ['a string past 2^63 - 1', '"9223372036854775808"'],
    ['a string below -2^63', '"-9223372036854775809"'],
    ['a number past 2^63 - 1', '9223372036854775808'],
    ['a number of 10^19 written with an exponent', '1e19'],
    ['a long string of digits', `"${'9'.repeat(40)}"`],
  ])('refuses the record whose intValue is %s, storing the rest', async (_what, literal) => {
    const traceId = newTraceId();
    const bad = jsonSpan(traceId, { attributes: [{ key: 'n', value: { intValue: 'LITERAL' } }] });
    const body = JSON.stringify(tracesRequest([jsonSpan(traceId), bad])).replace('"LITERAL"', literal);
    const res = await post(TRACES, body, 'json');
    expect(await answerOf(res, TRACES)).toEqual({
      status: 200,
      partialSuccess: { rejectedSpans: 1, errorMessage: '1 spans rejected: integer outside int64 (1)' },
    });
    expect(fx.server.traceStore.listSpans(traceId)).toHaveLength(1);
  });

  it('refuses, rather than rounds, an integer past 2^53 in a body too deeply nested to read it again', async () => {
    const traceId = newTraceId();
    const big = jsonSpan(traceId, { attributes: [{ key: 'n', value: { intValue: 'BIG' } }] });
    const plain = jsonSpan(traceId, { junk: 'JUNK' }); // an unknown member, ignored
    const body = JSON.stringify(tracesRequest([big, plain]))
      .replace('"BIG"', '9007199254740993')
      .replace('"JUNK"', `${'['.repeat(50_000)}${']'.repeat(50_000)}`);
    expect(await answerOf(await post(TRACES, body, 'json'), TRACES)).toEqual({
      status: 200,
      partialSuccess: {
        rejectedSpans: 1,
        errorMessage:
          '1 spans rejected: integer past 2^53 sent as a JSON number could not be read exactly (1)',
      },
    });
    expect(fx.server.traceStore.listSpans(traceId).map((s) => s.spanId)).toEqual([plain.spanId]);
  });

  it('writes integers and timestamps in their canonical decimal form, as protobuf carries them', async () => {
    const traceId = newTraceId();
    const span = jsonSpan(traceId, {
      startTimeUnixNano: '0001763740800000000000',
      attributes: [
        { key: 'zeros', value: { intValue: '0042' } },
        { key: 'minus zero', value: { intValue: '-0' } },
      ],
    });
    expect(await answerOf(await post(TRACES, JSON.stringify(tracesRequest([span])), 'json'), TRACES)).toEqual(
      {
        status: 200,
      },
    );
    expect(storedAttribute(traceId, 'zeros')).toEqual({ intValue: '42' });
    expect(storedAttribute(traceId, 'minus zero')).toEqual({ intValue: '0' });
    expect(fx.server.traceStore.listSpans(traceId)[0]?.startTimeUnixNano).toBe('1763740800000000000');
  });
});

describe('OTLP JSON text', () => {
  it('answers a JSON body that is not UTF-8 with 400 and stores nothing, as protobuf does', async () => {
    const traceId = newTraceId();
    const text = JSON.stringify(
      tracesRequest([jsonSpan(traceId, { attributes: [str('s', 'before-@-after')] })]),
    );
    const at = text.indexOf('@');
    const body = Buffer.concat([
      Buffer.from(text.slice(0, at)),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(text.slice(at + 1)),
    ]);
    const res = await post(TRACES, body, 'json');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('not valid UTF-8');
    expect(fx.server.traceStore.listSpans(traceId)).toEqual([]);

    // Protobuf: a string field that is not UTF-8, wherever it is (here, in a span refused anyway).
    const value = { stringValue: 'xyzzy' };
    const proto = encodeTracesProto(
      tracesRequest([
        jsonSpan(traceId),
        jsonSpan('00'.repeat(16), { events: [{ name: 'e', attributes: [{ key: 'k', value }] }] }),
      ]),
    );
    const broken = Buffer.from(proto);
    broken[broken.indexOf('xyzzy')] = 0xff;
    const protoRes = await post(TRACES, broken, 'protobuf');
    expect(protoRes.status).toBe(400);
    expect(fx.server.traceStore.listSpans(traceId)).toEqual([]);
  });

  it('stores an unpaired surrogate written as a JSON escape as U+FFFD, as a UTF-8 encoder of the same string does', async () => {
    const traceId = newTraceId();
    const key = 'k\\ud800';
    const body = JSON.stringify(
      tracesRequest([
        jsonSpan(traceId, {
          name: 'lone \\udc00 low',
          attributes: [
            str('lone', 'cut \\ud83d'),
            str('pair', 'smile \\ud83d\\ude00'),
            str('not an escape', '\\\\ud800'),
            str(key, 'v'),
          ],
        }),
      ]),
    ).replace(/\\\\/g, '\\'); // the test wrote each escape with a doubled backslash
    expect(await answerOf(await post(TRACES, body, 'json'), TRACES)).toEqual({ status: 200 });
    const [span] = fx.server.traceStore.listSpans(traceId);
    expect(span?.name).toBe('lone \ufffd low');
    expect(span?.attributes).toEqual([
      str('lone', 'cut \ufffd'),
      str('pair', 'smile \u{1f600}'),
      str('not an escape', '\\ud800'),
      str('k\ufffd', 'v'),
    ]);
    // The official serializers of the same span, JSON and protobuf, are stored alike.
    for (const encoding of ['json', 'protobuf'] as const) {
      const sdkTrace = newTraceId();
      const spans = [
        sdkSpan({
          traceId: sdkTrace,
          spanId: newSpanId(),
          resource: plainResource,
          scope: plainScope,
          attributes: { cut: 'ab\ud83d' },
        }),
      ];
      expect(await answerOf(await post(TRACES, encodeSdkSpans(spans, encoding), encoding), TRACES)).toEqual({
        status: 200,
      });
      expect(storedAttribute(sdkTrace, 'cut')).toEqual({ stringValue: 'ab\ufffd' });
    }
  });

  it('refuses a record with an empty-string timestamp', async () => {
    const traceId = newTraceId();
    const res = await post(
      TRACES,
      JSON.stringify(tracesRequest([jsonSpan(traceId), jsonSpan(traceId, { startTimeUnixNano: '' })])),
      'json',
    );
    expect(await answerOf(res, TRACES)).toEqual({
      status: 200,
      partialSuccess: { rejectedSpans: 1, errorMessage: '1 spans rejected: invalid timestamp (1)' },
    });
    const logs = await post(
      LOGS,
      JSON.stringify(logsRequest([{ timeUnixNano: '', body: { stringValue: 'x' } }])),
      'json',
    );
    expect(await answerOf(logs, LOGS)).toEqual({
      status: 200,
      partialSuccess: {
        rejectedLogRecords: 1,
        errorMessage: '1 log records rejected: invalid timestamp (1)',
      },
    });
  });

  it.each([
    ['an ASCII body (its attribute list kept as written)', ''],
    ['a body with other text (its attribute list serialized)', 'é'],
  ])('refuses a record whose double overflows (1e400), in %s', async (_what, text) => {
    const traceId = newTraceId();
    const overflow = jsonSpan(traceId, {
      attributes: [str('text', text), { key: 'd', value: { doubleValue: '@raw:1e400' } }],
    });
    const inEvent = jsonSpan(traceId, {
      events: [{ name: 'e', attributes: [{ key: 'd', value: { doubleValue: '@raw:-1e400' } }] }],
    });
    const res = await post(
      TRACES,
      withRawNumbers(tracesRequest([jsonSpan(traceId), overflow, inEvent])),
      'json',
    );
    expect(await answerOf(res, TRACES)).toEqual({
      status: 200,
      partialSuccess: { rejectedSpans: 2, errorMessage: '2 spans rejected: double outside its range (2)' },
    });
    expect(fx.server.traceStore.listSpans(traceId)).toHaveLength(1);
  });

  it('stores a log body that is the empty value as no body, as protobuf exporters omit it', async () => {
    const traceId = newTraceId();
    const res = await post(
      LOGS,
      JSON.stringify(logsRequest([{ traceId, spanId: newSpanId(), body: {} }])),
      'json',
    );
    expect(await answerOf(res, LOGS)).toEqual({ status: 200 });
    expect(fx.server.traceStore.listLogs(traceId)[0]?.body).toBeNull();
  });
});

describe('spans ending before they start', () => {
  it.each(['json', 'protobuf'] as const)(
    'are stored as sent, with a warning in partialSuccess and nothing rejected (%s)',
    async (encoding) => {
      const traceId = newTraceId();
      const backwards = jsonSpan(traceId, {
        startTimeUnixNano: '1763740801000000000',
        endTimeUnixNano: '1763740800000000000',
      });
      const request = tracesRequest([jsonSpan(traceId), backwards, jsonSpan(traceId, { name: '' })]);
      const body = encoding === 'json' ? JSON.stringify(request) : encodeTracesProto(request);
      expect(await answerOf(await post(TRACES, body, encoding), TRACES)).toEqual({
        status: 200,
        partialSuccess: {
          rejectedSpans: 1,
          errorMessage:
            '1 spans rejected: missing name (1); 1 spans stored with warnings: span ends before it starts (1)',
        },
      });
      const stored = fx.server.traceStore.listSpans(traceId).find((s) => s.spanId === backwards.spanId);
      expect(stored?.endTimeUnixNano).toBe('1763740800000000000');

      const alone = tracesRequest([{ ...backwards, spanId: newSpanId() }]);
      const warning = await post(
        TRACES,
        encoding === 'json' ? JSON.stringify(alone) : encodeTracesProto(alone),
        encoding,
      );
      expect(await answerOf(warning, TRACES)).toEqual({
        status: 200,
        partialSuccess: {
          rejectedSpans: 0,
          errorMessage: '1 spans stored with warnings: span ends before it starts (1)',
        },
      });
    },
  );
});

describe('the log route', () => {
  it('reads protobuf log bodies and attributes as JSON ones, with the receipt fields of a structured body', async () => {
    const traceId = newTraceId();
    const record = {
      traceId,
      spanId: newSpanId(),
      body: { kvlistValue: { values: [str('gen_ai.input.messages', '[]')] } },
      attributes: [str('a', 'b')],
    };
    const res = await post(LOGS, encodeLogsProto(logsRequest([record])), 'protobuf');
    expect(await answerOf(res, LOGS)).toEqual({ status: 200 });
    const [stored] = fx.server.traceStore.listLogs(traceId);
    expect(stored?.body).toEqual(record.body);
    expect(stored?.attributes).toEqual(record.attributes);
    const receipt = (await (await fx.receipt(traceId)).json()) as { fields: Record<string, boolean> };
    expect(receipt.fields.input).toBe(true);
  });
});
