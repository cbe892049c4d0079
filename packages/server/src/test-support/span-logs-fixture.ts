/**
 * Test support: a span with many correlated log records (more than a span detail lists at once),
 * sent through OTLP log ingest in an order other than their time order. Not part of the package's
 * public API.
 * @module
 */
import type { RunningServer } from '../start-server.js';
import { ingest } from './media-fixtures.js';
import { jsonSpan, logsRequest, newSpanId, newTraceId, str, tracesRequest } from './otlp-fixtures.js';

/** Log records the span has. */
export const SPAN_LOG_COUNT = 450;

/** The record (in time order) whose body is over the 64 KiB a span detail shows of a value. */
export const LONG_BODY_AT = 300;

const START = 1763740800000000000n;

/** The body of record `index` (in time order): its index in words, and for one record 70 KiB more. */
export function logBody(index: number): string {
  return index === LONG_BODY_AT ? `record ${index} ${'x'.repeat(70 * 1024)}<end>` : `record ${index}`;
}

/**
 * Stores a span and its {@link SPAN_LOG_COUNT} log records (record `i` a microsecond after record
 * `i - 1`, body {@link logBody}), sent newest first; returns the span's IDs.
 */
export async function ingestSpanWithLogs(
  server: RunningServer,
): Promise<{ traceId: string; spanId: string }> {
  const traceId = newTraceId();
  const spanId = newSpanId();
  await ingest(server, 'traces', tracesRequest([jsonSpan(traceId, { spanId, name: 'chatty span' })]));
  const records = Array.from({ length: SPAN_LOG_COUNT }, (_, i) => ({
    traceId,
    spanId,
    timeUnixNano: String(START + BigInt(i) * 1000n),
    severityText: 'INFO',
    body: { stringValue: logBody(i) },
    attributes: [str('app.record', String(i))],
  })).reverse();
  await ingest(server, 'logs', logsRequest(records));
  return { traceId, spanId };
}
