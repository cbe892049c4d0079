import { beforeAll, describe, expect, it } from 'vitest';
import { call, errorOf } from '../test-support/media-fixtures.js';
import { useServer } from '../test-support/server-fixture.js';
import {
  ingestSpanWithLogs,
  LONG_BODY_AT,
  logBody,
  SPAN_LOG_COUNT,
} from '../test-support/span-logs-fixture.js';
import type { SpanDetail } from './read-model-types.js';

// Issue 14: "Nothing is silently cut": every log record correlated with a span is reachable, a
// page at a time, in time order (a span detail lists at most 200 at once).
const fx = useServer();
const t = { traceId: '', spanId: '' };
const PAGE = 200;

beforeAll(async () => {
  Object.assign(t, await ingestSpanWithLogs(fx.server));
});

const bodyText = (log: SpanDetail['logs'][number]) => String(log.body).slice(0, 20);
const expectedText = (index: number) => logBody(index).slice(0, 20);

describe('spanDetail: the correlated log records, a page at a time', () => {
  it('pages through all 450 records exactly once, in time order, saying what comes after each page', async () => {
    const seen: string[] = [];
    const pages: { logsFrom: number; shown: number; omittedLogs: number }[] = [];
    let logsFrom = 0;
    for (;;) {
      const detail = await fx.server.readModel.spanDetail(t.traceId, t.spanId, {
        includeContent: true,
        logsFrom,
      });
      pages.push({ logsFrom: detail.logsFrom, shown: detail.logs.length, omittedLogs: detail.omittedLogs });
      expect(detail.span.logCount).toBe(SPAN_LOG_COUNT);
      seen.push(...detail.logs.map(bodyText));
      if (detail.omittedLogs === 0) break;
      logsFrom += detail.logs.length;
      expect(pages.length).toBeLessThan(10);
    }
    expect(pages).toEqual([
      { logsFrom: 0, shown: PAGE, omittedLogs: 250 },
      { logsFrom: 200, shown: PAGE, omittedLogs: 50 },
      { logsFrom: 400, shown: 50, omittedLogs: 0 },
    ]);
    expect(seen).toEqual(Array.from({ length: SPAN_LOG_COUNT }, (_, i) => expectedText(i)));
  });

  it('starts a page at any record, and answers an empty page past the last one', async () => {
    const from123 = await fx.server.readModel.spanDetail(t.traceId, t.spanId, {
      includeContent: true,
      logsFrom: 123,
    });
    expect(from123.logs.map(bodyText)).toEqual(Array.from({ length: PAGE }, (_, i) => expectedText(123 + i)));
    expect(from123).toMatchObject({ logsFrom: 123, omittedLogs: SPAN_LOG_COUNT - 123 - PAGE });
    const first = await fx.server.readModel.spanDetail(t.traceId, t.spanId, { includeContent: true });
    expect(first.logsFrom).toBe(0);
    for (const logsFrom of [SPAN_LOG_COUNT, 10_000]) {
      const past = await fx.server.readModel.spanDetail(t.traceId, t.spanId, {
        includeContent: true,
        logsFrom,
      });
      expect(past).toMatchObject({ logsFrom, logs: [], omittedLogs: 0 });
      expect(past.span.logCount).toBe(SPAN_LOG_COUNT);
    }
  });

  it('refuses a logsFrom that is not an integer of 0 or more, naming it', async () => {
    for (const logsFrom of [-1, 1.5, Number.NaN]) {
      await expect(
        fx.server.readModel.spanDetail(t.traceId, t.spanId, { includeContent: false, logsFrom }),
      ).rejects.toMatchObject({
        status: 400,
        code: 'invalid_request',
        message: expect.stringContaining('logsFrom'),
      });
    }
  });

  it('reads the whole body of a record on a later page by its index in the whole list', async () => {
    const page = await fx.server.readModel.spanDetail(t.traceId, t.spanId, {
      includeContent: true,
      logsFrom: PAGE,
    });
    const log = page.logs[LONG_BODY_AT - PAGE]!;
    expect(log).toMatchObject({ bodyTruncated: true, bodySize: Buffer.byteLength(logBody(LONG_BODY_AT)) });
    const whole = await fx.server.readModel.recordedValue(
      t.traceId,
      t.spanId,
      { record: 'log', index: LONG_BODY_AT },
      { includeContent: true },
    );
    expect(whole.text).toBe(logBody(LONG_BODY_AT));
  });
});

describe('GET /api/v1/traces/{traceId}/spans/{spanId}?logsFrom=', () => {
  const get = (query: string) =>
    call(fx.server, `/api/v1/traces/${t.traceId}/spans/${t.spanId}${query}`, { key: fx.server.keys.read });

  it('answers the page of log records starting at logsFrom', async () => {
    const res = await get('?logsFrom=400&includeContent=true');
    expect(res.status).toBe(200);
    const body = (await res.json()) as SpanDetail;
    expect(body).toMatchObject({ logsFrom: 400, omittedLogs: 0 });
    expect(body.logs.map(bodyText)).toEqual(Array.from({ length: 50 }, (_, i) => expectedText(400 + i)));
    const first = (await (await get('')).json()) as SpanDetail;
    expect(first).toMatchObject({ logsFrom: 0, omittedLogs: 250 });
    expect(first.logs).toHaveLength(PAGE);
  });

  it.each(['-1', 'abc', '1.5', '1e2', '', '1000000000'])(
    'refuses logsFrom=%s with a 400 naming the parameter',
    async (value) => {
      const error = await errorOf(await get(`?logsFrom=${value}`));
      expect(error).toMatchObject({ status: 400, code: 'invalid_request' });
      expect(error.message).toMatch(/^logsFrom: /);
    },
  );

  it('states logsFrom in the OpenAPI document as the route reads it', async () => {
    const res = await call(fx.server, '/api/v1/openapi.json', { key: fx.server.keys.read });
    const doc = (await res.json()) as {
      paths: Record<
        string,
        { get: { parameters: { name: string; in: string; schema: Record<string, unknown> }[] } }
      >;
      components: { schemas: { SpanDetail: { properties: Record<string, unknown>; required: string[] } } };
    };
    const parameter = doc.paths['/api/v1/traces/{traceId}/spans/{spanId}']!.get.parameters.find(
      (p) => p.name === 'logsFrom',
    );
    expect(parameter).toMatchObject({ in: 'query', required: false, schema: { type: 'string' } });
    const pattern = new RegExp((parameter!.schema as { pattern: string }).pattern);
    for (const good of ['0', '7', '450', '999999999']) {
      expect(pattern.test(good), good).toBe(true);
      expect((await get(`?logsFrom=${good}`)).status, good).toBe(200);
    }
    for (const bad of ['-1', 'abc', '1.5', '1e2', '', '1000000000'])
      expect(pattern.test(bad), bad).toBe(false);
    expect(doc.components.schemas.SpanDetail.required).toEqual(
      expect.arrayContaining(['logsFrom', 'omittedLogs']),
    );
  });
});
