/**
 * Where records held in memory list files: the same {@link FileListing}s `FileRecords.listings`
 * reads from the store, taken from stored spans and log records given as values (a trace
 * snapshot's copies). `listedFiles` turns them into files.
 * @module
 */

import type { FileListing, ListingScope } from '../ingest/file-records.js';
import type { LogRecordRecord, SpanRecord } from '../otlp/model.js';

/**
 * The listings of `spans` (in start order: each span's `svc.blobs`, then its `svc.file` events)
 * and of the log records among `logs` correlated with the trace (in the order given, time order for
 * a snapshot). `scope.spanId` keeps that span and its correlated log records; `scope.sha256`
 * skips records whose listings cannot name that digest (callers still match entries).
 *
 * @example
 * ```ts
 * const files = listedFiles(recordListings(snapshot.spans, snapshot.logs, { spanId }));
 * ```
 */
export function recordListings(
  spans: readonly SpanRecord[],
  logs: readonly LogRecordRecord[],
  scope: ListingScope = {},
): FileListing[] {
  const listings: FileListing[] = [];
  const inScope = (spanId: string) => scope.spanId === undefined || spanId === scope.spanId;
  const mayName = (value: unknown) =>
    scope.sha256 === undefined || JSON.stringify(value).includes(scope.sha256);
  const ordered = spans
    .map((span, index) => ({ span, index }))
    .sort((a, b) => compareNanos(a.span.startTimeUnixNano, b.span.startTimeUnixNano) || a.index - b.index);
  for (const { span } of ordered) {
    if (!inScope(span.spanId)) continue;
    for (const { key, value } of span.attributes) {
      if (key !== 'svc.blobs' || !mayName(value)) continue;
      listings.push({ source: 'blobs', record: 'span', spanId: span.spanId, value });
    }
    for (const event of span.events) {
      if (event.name !== 'svc.file' || !mayName(event.attributes)) continue;
      listings.push({ source: 'event', record: 'span', spanId: span.spanId, attributes: event.attributes });
    }
  }
  for (const log of logs) {
    if (log.traceId === '' || !inScope(log.spanId)) continue;
    for (const { key, value } of log.attributes) {
      if (key !== 'svc.blobs' || !mayName(value)) continue;
      listings.push({
        source: 'blobs',
        record: 'log',
        spanId: log.spanId,
        logTimeUnixNano: log.timeUnixNano,
        value,
      });
    }
  }
  return listings;
}

/** Compares two decimal nanosecond times. */
function compareNanos(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
