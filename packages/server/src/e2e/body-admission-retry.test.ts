/**
 * A body past the memory budget is answered 503 with `Retry-After`, which OTLP exporters retry:
 * the official OTLP/HTTP trace exporter, refused while the budget is held, retries after the delay
 * and its spans are stored.
 */
import { request as httpRequest } from 'node:http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { waitUntil } from '@svc-run/test-support';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RequestLogEntry } from '../http/request-log.js';
import { MAX_OTLP_BODY_BYTES } from '../limits.js';
import { type RunningServer, startServer } from '../start-server.js';
import { EXPORT_SUCCESS, recordingSpanExporter } from './official-exporters-helpers.js';

const TRACES = '/api/v1/otlp/v1/traces';
let server: RunningServer;
const entries: RequestLogEntry[] = [];

beforeAll(async () => {
  // A budget of one largest body, so that one held body fills it.
  server = await startServer({ bodyBudgetBytes: MAX_OTLP_BODY_BYTES, requestLog: (e) => entries.push(e) });
});
afterAll(() => server?.close());

it('answers 503 with Retry-After past the budget, and the official OTLP exporter retries and is stored', async () => {
  // A client that declares the largest body and sends a little of it holds the whole budget.
  const holder = httpRequest(`${server.origin}${TRACES}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${server.keys.tracing}`,
      'content-type': 'application/json',
      'content-length': String(MAX_OTLP_BODY_BYTES),
    },
  });
  holder.on('error', () => undefined); // destroyed below
  holder.write('{"resourceSpans":[');

  const direct = await waitUntil(async () => {
    const res = await fetch(`${server.origin}${TRACES}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.keys.tracing}`, 'content-type': 'application/json' },
      body: '{"resourceSpans":[]}',
    });
    await res.arrayBuffer();
    return res.status === 503 && res;
  }, 'the budget to be held');
  expect(direct.headers.get('retry-after')).toBe('1');

  const { exporter, results } = recordingSpanExporter(
    new OTLPTraceExporter({
      url: `${server.origin}${TRACES}`,
      headers: { Authorization: `Bearer ${server.keys.tracing}` },
      timeoutMillis: 60_000,
    }),
  );
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'admission-retry' }),
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  });
  const span = provider.getTracer('admission-retry').startSpan('chat');
  const { traceId, spanId } = span.spanContext();
  span.end();
  const flushed = provider.forceFlush();

  // The exporter's first attempt is refused; then the budget is given back (its client goes away).
  const refusals = entries.filter((e) => e.status === 503).length;
  await waitUntil(() => entries.filter((e) => e.status === 503).length > refusals, "the exporter's refusal");
  holder.destroy();
  await flushed;
  await provider.shutdown();
  expect(results.map((r) => r.code)).toEqual([EXPORT_SUCCESS]);

  const receipt = await fetch(`${server.origin}/api/v1/traces/${traceId}/receipt?expectedSpanId=${spanId}`, {
    headers: { authorization: `Bearer ${server.keys.tracing}` },
  });
  expect(await receipt.json()).toMatchObject({ spanCount: 1, missingSpanIds: [] });
  const exports = entries.filter((e) => e.route === TRACES);
  expect(exports.map((e) => e.status)).toEqual(expect.arrayContaining([503, 499, 200]));
  expect(exports.filter((e) => e.status === 503).every((e) => e.error === 'unavailable')).toBe(true);
});
