import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ListingScope } from '../ingest/file-records.js';
import { blobsAttribute, entryOf, fileEvent, ingest, sha256Of } from '../test-support/media-fixtures.js';
import {
  jsonSpan,
  logsRequest,
  newSpanId,
  newTraceId,
  str,
  tracesRequest,
} from '../test-support/otlp-fixtures.js';
import { useServer } from '../test-support/server-fixture.js';
import { listedFiles } from './listed-files.js';
import { recordListings } from './record-listings.js';

const fx = useServer();

describe('recordListings: the listings of records given as values', () => {
  it('lists what the store lists for the same trace: span order, events, correlated logs, every scope', async () => {
    const traceId = newTraceId();
    const [early, late, quiet] = [newSpanId(), newSpanId(), newSpanId()];
    const [a, b, c, d, e] = [
      randomBytes(11),
      randomBytes(12),
      randomBytes(13),
      randomBytes(14),
      randomBytes(15),
    ];
    // Stored out of start order: the later span first.
    await ingest(
      fx.server,
      'traces',
      tracesRequest([
        jsonSpan(traceId, {
          spanId: late,
          startTimeUnixNano: '1763740800900000000',
          attributes: [blobsAttribute([entryOf(a, { name: 'late-a.png' })])],
          events: [fileEvent(c, { role: 'output', name: 'out.pdf' }), { name: 'other', attributes: [] }],
        }),
        jsonSpan(traceId, {
          spanId: early,
          startTimeUnixNano: '1763740800100000000',
          attributes: [
            str('gen_ai.operation.name', 'chat'),
            blobsAttribute([entryOf(a, { name: 'early-a.png' }), entryOf(b, { key: 'input.value#' })]),
          ],
          events: [fileEvent(b, { role: 'input' })],
        }),
        jsonSpan(traceId, { spanId: quiet, startTimeUnixNano: '1763740800500000000' }),
      ]),
    );
    await ingest(
      fx.server,
      'logs',
      logsRequest([
        {
          timeUnixNano: '1763740800700000000',
          traceId,
          spanId: early,
          attributes: [blobsAttribute([entryOf(d, { key: 'body#/0/parts/0', name: 'log-d.png' })])],
        },
        {
          timeUnixNano: '1763740800200000000',
          traceId,
          spanId: late,
          attributes: [blobsAttribute([entryOf(e, { key: 'body#/1' })])],
        },
        // Uncorrelated: never a file of the trace.
        { timeUnixNano: '1763740800300000000', attributes: [blobsAttribute([entryOf(e)])] },
      ]),
    );
    const spans = fx.server.traceStore.listSpans(traceId);
    const logs = fx.server.traceStore.listLogs(traceId);
    const scopes: ListingScope[] = [
      {},
      { spanId: early },
      { spanId: late },
      { spanId: quiet },
      { sha256: sha256Of(a) },
      { sha256: sha256Of(c), spanId: late },
      { sha256: sha256Of(e) },
    ];
    for (const scope of scopes) {
      // Like the store's, the digest scope is a prefilter: callers match entries.
      const fromValues = listedFiles(recordListings(spans, logs, scope)).filter(
        (f) => scope.sha256 === undefined || f.sha256 === scope.sha256,
      );
      const fromStore = fx.server.files.listed(traceId, scope);
      expect(fromValues, JSON.stringify(scope)).toEqual(fromStore);
    }
    const all = listedFiles(recordListings(spans, logs));
    expect(all.map((f) => [f.spanId, f.record, f.name])).toEqual([
      [early, 'span', 'early-a.png'],
      [early, 'span', null],
      [early, 'span', null],
      [late, 'span', 'late-a.png'],
      [late, 'span', 'out.pdf'],
      [late, 'log', null],
      [early, 'log', 'log-d.png'],
    ]);
    expect(listedFiles(recordListings(spans, logs, { spanId: quiet }))).toEqual([]);
    expect(recordListings([], [])).toEqual([]);
  });
});
