import { describe, expect, it } from 'vitest';
import { MAX_RECEIPT_BYTES } from '../limits.js';
import { FIELD_CONVENTIONS, RECEIPT_FIELDS, type ReceiptField } from '../receipt/field-conventions.js';
import {
  jsonSpan,
  logsRequest,
  newSpanId,
  newTraceId,
  str,
  tracesRequest,
} from '../test-support/otlp-fixtures.js';
import { useServer } from '../test-support/server-fixture.js';

const fx = useServer();
const TRACES = '/api/v1/otlp/v1/traces';

interface Receipt {
  traceId: string;
  spanCount: number;
  revision: number;
  fields: Record<ReceiptField, boolean>;
  matchedSpanIds: string[];
  missingSpanIds: string[];
  traceUrl: string;
}

async function receiptOf(traceId: string, expected: string[] = []): Promise<Receipt> {
  const res = await fx.receipt(traceId, expected);
  expect(res.status).toBe(200);
  return (await res.json()) as Receipt;
}

describe('trace receipt', () => {
  it('reports spans, matched and missing IDs, revision and the viewer URL', async () => {
    const traceId = newTraceId();
    const ids = [newSpanId(), newSpanId()];
    await fx.postJson(TRACES, tracesRequest(ids.map((spanId) => jsonSpan(traceId, { spanId }))));
    const absent = newSpanId();
    const receipt = await receiptOf(traceId, [ids[1]!, absent, ids[0]!, ids[1]!]);
    expect(receipt).toEqual({
      traceId,
      spanCount: 2,
      revision: 1,
      fields: {
        input: false,
        output: false,
        model: false,
        usage: false,
        session: false,
        user: false,
        error: false,
        tool: false,
      },
      matchedSpanIds: [ids[1], ids[0]],
      missingSpanIds: [absent],
      traceUrl: `${fx.server.origin}/traces/${traceId}`,
    });
  });

  it('grows the revision with every accepted write touching the trace, spans or logs', async () => {
    const traceId = newTraceId();
    await fx.postJson(TRACES, tracesRequest([jsonSpan(traceId)]));
    expect((await receiptOf(traceId)).revision).toBe(1);
    await fx.postJson(TRACES, tracesRequest([jsonSpan(traceId)]));
    expect((await receiptOf(traceId)).revision).toBe(2);
    await fx.postJson('/api/v1/otlp/v1/logs', logsRequest([{ traceId, body: { stringValue: 'x' } }]));
    expect((await receiptOf(traceId)).revision).toBe(3);
    // A write touching other traces, or only refused spans of this one, does not count.
    await fx.postJson(TRACES, tracesRequest([jsonSpan(newTraceId()), jsonSpan(traceId, { name: '' })]));
    const receipt = await receiptOf(traceId);
    expect(receipt.revision).toBe(3);
    expect(receipt.spanCount).toBe(2);
  });

  const conventionCases = RECEIPT_FIELDS.flatMap((field) =>
    FIELD_CONVENTIONS[field].flatMap((c) => [
      ...c.names.map((name) => [field, c.convention, name] as const),
      ...(c.prefixes ?? []).map((prefix) => [field, c.convention, `${prefix}0.content`] as const),
    ]),
  );

  it.each(conventionCases)(
    'sets %s from the %s attribute %s, and only that field',
    async (field, _c, name) => {
      const traceId = newTraceId();
      await fx.postJson(TRACES, tracesRequest([jsonSpan(traceId, { attributes: [str(name, '')] })]));
      const { fields } = await receiptOf(traceId);
      expect(fields[field]).toBe(true);
      // The other fields stay false, unless the same attribute name belongs to them as well.
      const others = RECEIPT_FIELDS.filter((f) => f !== field && fields[f]);
      for (const other of others) {
        const listed = FIELD_CONVENTIONS[other].some(
          (c) => c.names.includes(name) || (c.prefixes ?? []).some((p) => name.startsWith(p)),
        );
        expect(listed).toBe(true);
      }
    },
  );

  it('sets error from an ERROR status or an exception event', async () => {
    const byStatus = newTraceId();
    const byEvent = newTraceId();
    await fx.postJson(
      TRACES,
      tracesRequest([
        jsonSpan(byStatus, { status: { code: 2, message: 'failed' } }),
        jsonSpan(byEvent, { events: [{ name: 'exception', timeUnixNano: '1', attributes: [] }] }),
      ]),
    );
    expect((await receiptOf(byStatus)).fields.error).toBe(true);
    expect((await receiptOf(byEvent)).fields.error).toBe(true);
  });

  it('sets fields from correlated log records, attributes or a structured body', async () => {
    const traceId = newTraceId();
    await fx.postJson(TRACES, tracesRequest([jsonSpan(traceId)]));
    await fx.postJson(
      '/api/v1/otlp/v1/logs',
      logsRequest([
        { traceId, attributes: [str('gen_ai.input.messages', '[]')] },
        {
          traceId,
          body: {
            kvlistValue: { values: [{ key: 'gen_ai.output.messages', value: { stringValue: '[]' } }] },
          },
        },
      ]),
    );
    const { fields } = await receiptOf(traceId);
    expect(fields.input).toBe(true);
    expect(fields.output).toBe(true);
    expect(fields.model).toBe(false);
  });

  it('answers 404 with a JSON error for an unknown trace', async () => {
    const res = await fx.receipt(newTraceId());
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  const invalid: Array<[string, string, string[]]> = [
    ['an uppercase trace ID', 'AB'.repeat(16), []],
    ['a short trace ID', 'ab'.repeat(15), []],
    ['an all-zero trace ID', '0'.repeat(32), []],
    ['a short expected span ID', 'ab'.repeat(16), ['abc']],
    ['an all-zero expected span ID', 'ab'.repeat(16), ['0'.repeat(16)]],
    ['an uppercase expected span ID', 'ab'.repeat(16), ['AB'.repeat(8)]],
  ];

  it.each(invalid)('answers 400 for %s', async (_what, traceId, expected) => {
    const res = await fx.receipt(traceId, expected);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_request' } });
  });

  it('accepts 100 unique expected span IDs (duplicates collapse) in a body under 64 KiB, refuses 101', async () => {
    const traceId = newTraceId();
    const spans = Array.from({ length: 100 }, () => jsonSpan(traceId));
    await fx.postJson(TRACES, tracesRequest(spans));
    const ids = spans.map((s) => s.spanId as string);
    const res = await fx.receipt(traceId, [...ids, ...ids]);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_RECEIPT_BYTES);
    expect((JSON.parse(text) as Receipt).matchedSpanIds).toHaveLength(100);

    const tooMany = await fx.receipt(traceId, [...ids, newSpanId()]);
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { error: { message: string } }).error.message).toContain('At most 100');
  });
});
