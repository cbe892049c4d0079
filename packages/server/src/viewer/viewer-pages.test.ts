import { beforeAll, describe, expect, it } from 'vitest';
import { ingest } from '../test-support/media-fixtures.js';
import { jsonSpan, newSpanId, newTraceId, str, tracesRequest } from '../test-support/otlp-fixtures.js';
import { useServer } from '../test-support/server-fixture.js';
import {
  ingestSpanWithLogs,
  LONG_BODY_AT,
  logBody,
  SPAN_LOG_COUNT,
} from '../test-support/span-logs-fixture.js';
import { logIn, viewerGet } from '../test-support/viewer-fixtures.js';

const fx = useServer();
const t = { big: '', bigRoot: '', cut: '', cutSpan: '', cookie: '', service: `svc-${newSpanId()}` };
const chatty = { traceId: '', spanId: '' };
/** A value over the 64 KiB a span detail shows whole (and under the 1 MiB inline limit). */
const LONG = `${'0123456789abcdef'.repeat(5 * 1024)}<end>`;

beforeAll(async () => {
  // A trace of 10,001 spans: a root and 10,000 children (one more than an outline page holds).
  t.big = newTraceId();
  t.bigRoot = newSpanId();
  const spans = [jsonSpan(t.big, { spanId: t.bigRoot, name: 'big root' })];
  for (let i = 0; i < 10_000; i++) {
    spans.push(
      jsonSpan(t.big, {
        spanId: newSpanId(),
        parentSpanId: t.bigRoot,
        name: `step ${i}`,
        startTimeUnixNano: String(1763740800000000000n + BigInt(i + 1) * 1000n),
        endTimeUnixNano: String(1763740800000000000n + BigInt(i + 2) * 1000n),
      }),
    );
  }
  await ingest(fx.server, 'traces', tracesRequest(spans));

  t.cut = newTraceId();
  t.cutSpan = newSpanId();
  await ingest(
    fx.server,
    'traces',
    tracesRequest([
      jsonSpan(t.cut, { spanId: t.cutSpan, name: 'long value', attributes: [str('app.document', LONG)] }),
    ]),
  );
  // Three traces of one service, a minute apart, for the list's pages.
  for (let i = 0; i < 3; i++) {
    const start = 1763740800000000000n + BigInt(i) * 60_000_000_000n;
    const request = tracesRequest([
      jsonSpan(newTraceId(), {
        name: `listed ${i}`,
        startTimeUnixNano: String(start),
        endTimeUnixNano: String(start + 1_000_000n),
      }),
    ]);
    (request.resourceSpans[0] as { resource: { attributes: unknown[] } }).resource.attributes = [
      str('service.name', t.service),
    ];
    await ingest(fx.server, 'traces', request);
  }
  Object.assign(chatty, await ingestSpanWithLogs(fx.server));
  t.cookie = await logIn(fx.server);
}, 120_000);

describe('the trace page', () => {
  it('lists 10,000 spans a page, and says how many more there are and where', async () => {
    const res = await viewerGet(fx.server, `/traces/${t.big}`, t.cookie);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html.match(/<a href="[^"]*" class="r /g)).toHaveLength(10_000);
    expect(html).toContain('Showing spans 1–10,000 of 10,001');
    expect(html).toContain(`href="/traces/${t.big}?after=10000"`);
    expect(html).toContain('Next 1 spans »');
    // The root is selected: its detail is on the page.
    expect(html).toContain(`data-span-id="${t.bigRoot}"`);

    const next = await (await viewerGet(fx.server, `/traces/${t.big}?after=10000`, t.cookie)).text();
    expect(next.match(/<a href="[^"]*" class="r /g)).toHaveLength(1);
    expect(next).toContain('Showing spans 10,001–10,001 of 10,001');
    expect(next).toContain(`href="/traces/${t.big}"`); // back to the first spans
  });

  it('shows the start of a value over 64 KiB, its whole size, and the whole value as a download', async () => {
    const html = await (await viewerGet(fx.server, `/traces/${t.cut}`, t.cookie)).text();
    expect(html).toContain('Showing the first 64 KiB of 80 KiB (81,925 bytes).');
    expect(html).not.toContain('&lt;end&gt;');
    const href =
      /<a href="([^"]*\/value\?attribute=app\.document)" download="">Download the whole value<\/a>/.exec(
        html,
      )?.[1];
    expect(href).toBe(`/traces/${t.cut}/spans/${t.cutSpan}/value?attribute=app.document`);
    const whole = await viewerGet(fx.server, href!.replaceAll('&amp;', '&'), t.cookie);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(whole.headers.get('content-disposition')).toMatch(/^attachment; filename="app\.document\.txt"/);
    expect(whole.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await whole.text()).toBe(LONG);
    expect(
      (await viewerGet(fx.server, `/traces/${t.cut}/spans/${t.cutSpan}/value?attribute=nope`, t.cookie))
        .status,
    ).toBe(404);
  });

  it('answers an unknown trace, a malformed ID and an unknown span with a page saying so', async () => {
    const unknown = await viewerGet(fx.server, `/traces/${newTraceId()}`, t.cookie);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('No spans or logs of this trace are stored (yet).');
    const malformed = await viewerGet(fx.server, '/traces/not-a-trace', t.cookie);
    expect(malformed.status).toBe(404);
    expect(await malformed.text()).toContain('This is not a trace ID');
    const upper = await viewerGet(fx.server, `/traces/${t.cut.toUpperCase()}?span=${t.cutSpan}`, t.cookie);
    expect(upper.status).toBe(301);
    expect(upper.headers.get('location')).toBe(`/traces/${t.cut}?span=${t.cutSpan}`);
    const span = await (await viewerGet(fx.server, `/traces/${t.cut}?span=${newSpanId()}`, t.cookie)).text();
    expect(span).toContain('No span of this ID is stored in this trace.');
  });

  it('serves the selected span’s detail alone for the script, and sends a browser opening it to the page', async () => {
    const fragment = await viewerGet(fx.server, `/traces/${t.cut}/spans/${t.cutSpan}`, t.cookie);
    expect(fragment.status).toBe(200);
    const html = await fragment.text();
    expect(html).toMatch(/^<article class="span-detail"/);
    expect(html).toContain('long value');
    const opened = await viewerGet(fx.server, `/traces/${t.cut}/spans/${t.cutSpan}`, t.cookie, {
      'sec-fetch-dest': 'document',
    });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe(`/traces/${t.cut}?span=${t.cutSpan}`);
  });
});

describe('a span with more log records than a page holds', () => {
  /** The records a page shows, by the index in their body (`record 12`), in page order. */
  const shownRecords = (html: string) =>
    [...html.matchAll(/<li class="log">[\s\S]*?<pre>record (\d+)[ <]/g)].map((m) => Number(m[1]));
  const linkTo = (html: string, text: RegExp) =>
    new RegExp(`<a href="([^"]+)">${text.source}</a>`).exec(html)?.[1]?.replaceAll('&amp;', '&');
  const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

  it('says how many log records come before and after the page, and links to the next and previous records', async () => {
    const spanPage = `/traces/${chatty.traceId}?span=${chatty.spanId}`;
    const first = await (await viewerGet(fx.server, spanPage, t.cookie)).text();
    expect(first).toContain(`Logs (${SPAN_LOG_COUNT})`);
    expect(shownRecords(first)).toEqual(range(0, 200));
    expect(first).toContain(
      'Showing log records 1–200 of 450 (in time order, at most 200 a page): 0 before, 250 after.',
    );
    expect(linkTo(first, /« Previous \d+ log records/)).toBeUndefined();
    const next = linkTo(first, /Next 200 log records »/);
    expect(next).toBe(`${spanPage}&logs=200`);

    const second = await (await viewerGet(fx.server, next!, t.cookie)).text();
    expect(shownRecords(second)).toEqual(range(200, 400));
    expect(second).toContain(
      'Showing log records 201–400 of 450 (in time order, at most 200 a page): 200 before, 50 after.',
    );
    expect(linkTo(second, /« Previous 200 log records/)).toBe(spanPage);
    const last = linkTo(second, /Next 50 log records »/);
    expect(last).toBe(`${spanPage}&logs=400`);

    const third = await (await viewerGet(fx.server, last!, t.cookie)).text();
    expect(shownRecords(third)).toEqual(range(400, SPAN_LOG_COUNT));
    expect(third).toContain(
      'Showing log records 401–450 of 450 (in time order, at most 200 a page): 400 before, 0 after.',
    );
    expect(linkTo(third, /Next \d+ log records »/)).toBeUndefined();
    expect(linkTo(third, /« Previous 200 log records/)).toBe(`${spanPage}&logs=200`);
  });

  it('reads the whole body of a log record on a later page, by its index in the whole list', async () => {
    const second = await (
      await viewerGet(fx.server, `/traces/${chatty.traceId}?span=${chatty.spanId}&logs=200`, t.cookie)
    ).text();
    const href = /<a href="([^"]*\/value\?log=\d+)" download="">Download the whole value<\/a>/.exec(
      second,
    )?.[1];
    expect(href).toBe(`/traces/${chatty.traceId}/spans/${chatty.spanId}/value?log=${LONG_BODY_AT}`);
    const whole = await viewerGet(fx.server, href!, t.cookie);
    expect(whole.status).toBe(200);
    expect(await whole.text()).toBe(logBody(LONG_BODY_AT));
  });

  it('serves a page of log records in the detail fragment too, and sends a browser opening it to its permalink', async () => {
    const fragment = `/traces/${chatty.traceId}/spans/${chatty.spanId}?logs=400`;
    const html = await (await viewerGet(fx.server, fragment, t.cookie)).text();
    expect(shownRecords(html)).toEqual(range(400, SPAN_LOG_COUNT));
    const opened = await viewerGet(fx.server, fragment, t.cookie, { 'sec-fetch-dest': 'document' });
    expect(opened.headers.get('location')).toBe(`/traces/${chatty.traceId}?span=${chatty.spanId}&logs=400`);
  });

  it('says a page past the last record holds none, and links back to the last records', async () => {
    const spanPage = `/traces/${chatty.traceId}?span=${chatty.spanId}`;
    const past = await (await viewerGet(fx.server, `${spanPage}&logs=9999`, t.cookie)).text();
    expect(shownRecords(past)).toEqual([]);
    expect(past).toContain('No log records from record 10,000 on: all 450 come before.');
    expect(linkTo(past, /« Previous 200 log records/)).toBe(`${spanPage}&logs=250`);
  });
});

describe('the trace list', () => {
  it('pages through the traces newest first with the filters kept', async () => {
    const first = await (await viewerGet(fx.server, `/traces?service=${t.service}&limit=2`, t.cookie)).text();
    const names = (html: string) =>
      [...html.matchAll(/<td class="name"><a href="[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]);
    expect(names(first)).toEqual(['listed 2', 'listed 1']);
    const next = /<a href="([^"]+)">Next page »<\/a>/.exec(first)?.[1]?.replaceAll('&amp;', '&');
    expect(next).toMatch(new RegExp(`^/traces\\?service=${t.service}&limit=2&after=`));
    const second = await (await viewerGet(fx.server, next!, t.cookie)).text();
    expect(names(second)).toEqual(['listed 0']);
    expect(second).not.toContain('Next page »');
    expect(second).toContain('« First page');
    // The form keeps what was searched.
    expect(second).toContain(`name="service" type="text" value="${t.service}"`);
  });

  it('says which field is wrong, by its label, without running the search', async () => {
    const res = await viewerGet(fx.server, '/traces?minDurationMs=-5', t.cookie);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Min duration (ms):');
    const half = await viewerGet(fx.server, '/traces?attributeKey=tenant', t.cookie);
    expect(half.status).toBe(400);
    expect(await half.text()).toContain('Attribute key and attribute value go together');
    const cursor = await viewerGet(fx.server, '/traces?after=nonsense', t.cookie);
    expect(cursor.status).toBe(400);
    expect(await cursor.text()).toContain('after: must be a nextCursor of a previous page.');
  });

  it('reads a datetime-local time as UTC', async () => {
    const before = await (
      await viewerGet(fx.server, `/traces?service=${t.service}&to=2025-11-21T16:01`, t.cookie)
    ).text();
    expect([...before.matchAll(/listed (\d)/g)].map((m) => m[1])).toEqual(['0']);
  });

  it('sends / to the list', async () => {
    const res = await viewerGet(fx.server, '/', t.cookie);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/traces');
  });
});
