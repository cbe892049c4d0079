import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { waitUntil } from '@svc-run/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE, type RunningServer, startServer } from '../start-server.js';
import {
  encodeLogsProto,
  encodeTracesProto,
  int,
  jsonSpan,
  logsRequest,
  newSpanId,
  newTraceId,
  str,
  tracesRequest,
} from '../test-support/otlp-fixtures.js';

const dirs: string[] = [];
const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(dataDir?: string, faultInjection = false): Promise<RunningServer> {
  const server = await startServer({ ...(dataDir ? { dataDir } : {}), faultInjection });
  servers.push(server);
  return server;
}

function post(server: RunningServer, body: unknown): Promise<Response> {
  return fetch(`${server.origin}/api/v1/otlp/v1/traces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.keys.tracing}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('the embedded store', () => {
  it('answers 503 when storing fails, stores nothing of that request, and still stores the requests committed with it', async () => {
    const server = await start();
    // Every insert of a span link now fails inside the writer's transaction.
    const db = new DatabaseSync(join(server.dataDir, DATABASE_FILE));
    db.exec(
      "CREATE TRIGGER fail_links BEFORE INSERT ON span_links BEGIN SELECT RAISE(ABORT, 'injected'); END",
    );
    db.close();

    const bad = newTraceId();
    const good = Array.from({ length: 6 }, () => newTraceId());
    const link = { traceId: newTraceId(), spanId: newSpanId() };
    // Sent together, so the writer is likely to commit several in one shared transaction.
    const responses = await Promise.all([
      ...good.slice(0, 3).map((t) => post(server, tracesRequest([jsonSpan(t), jsonSpan(t)]))),
      post(server, tracesRequest([jsonSpan(bad), jsonSpan(bad, { links: [link] })])),
      ...good.slice(3).map((t) => post(server, tracesRequest([jsonSpan(t), jsonSpan(t)]))),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 503, 200, 200, 200]);
    const failed = (await responses[3]!.json()) as { error: { code: string; message: string } };
    expect(failed.error.code).toBe('unavailable');
    expect(failed.error.message).not.toContain('injected');
    expect(responses[3]!.headers.get('retry-after')).toBe('1');

    expect(server.traceStore.getTraceSummary(bad)).toBeUndefined();
    for (const traceId of good) expect(server.traceStore.getTraceSummary(traceId)?.spanCount).toBe(2);
  });

  it('finishes the requests in flight on close, and they survive a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-store-'));
    dirs.push(dataDir);
    // Fault injection only to see when the request has arrived: no fault is injected.
    const server = await start(dataDir, true);
    const traceId = newTraceId();
    const pending = post(server, tracesRequest(Array.from({ length: 5_000 }, () => jsonSpan(traceId))));
    // Close once the request has reached the server, while it is being read, decoded or stored.
    await waitUntil(() => server.faults!.seen('otlp.traces') === 1, 'the request to arrive');
    const [response] = await Promise.all([pending, server.close()]);
    expect(response.status).toBe(200);

    const again = await start(dataDir);
    expect(again.traceStore.getTraceSummary(traceId)?.spanCount).toBe(5_000);
  });

  it('stores only rows whose resource, scope, trace and project rows are stored too', async () => {
    const server = await start();
    const traceId = newTraceId();
    const spanId = newSpanId();
    const event = { name: 'e', timeUnixNano: '1', attributes: [str('k', 'v')] };
    const link = { traceId: newTraceId(), spanId: newSpanId() };
    const other = {
      resource: { attributes: [str('service.name', 'other')] },
      scopeSpans: [{ scope: { name: 'other-scope' }, spans: [jsonSpan(newTraceId())] }],
    };
    const request = tracesRequest([jsonSpan(traceId, { spanId, events: [event], links: [link] })]);
    request.resourceSpans.push(other);
    expect((await post(server, request)).status).toBe(200);
    // Re-sent (events and links replaced), and over protobuf.
    expect((await post(server, request)).status).toBe(200);
    const proto = await fetch(`${server.origin}/api/v1/otlp/v1/traces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.keys.tracing}`, 'content-type': 'application/x-protobuf' },
      body: encodeTracesProto(tracesRequest([jsonSpan(newTraceId())])),
    });
    expect(proto.status).toBe(200);
    const logs = await fetch(`${server.origin}/api/v1/otlp/v1/logs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.keys.tracing}`, 'content-type': 'application/json' },
      body: JSON.stringify(
        logsRequest([{ traceId, spanId, body: { stringValue: 'x' } }, { body: { stringValue: 'y' } }]),
      ),
    });
    expect(logs.status).toBe(200);

    const db = new DatabaseSync(join(server.dataDir, DATABASE_FILE), { readOnly: true });
    try {
      expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
      const orphans = db
        .prepare(
          `SELECT COUNT(*) AS n FROM (
             SELECT trace_no FROM spans UNION ALL SELECT trace_no FROM span_events
             UNION ALL SELECT trace_no FROM span_links
             UNION ALL SELECT trace_no FROM log_records WHERE trace_no IS NOT NULL
           ) WHERE trace_no NOT IN (SELECT trace_no FROM traces)`,
        )
        .get() as { n: number };
      expect(orphans.n).toBe(0);
      const counts = db
        .prepare(
          `SELECT (SELECT COUNT(*) FROM spans) AS spans, (SELECT COUNT(*) FROM span_events) AS events,
             (SELECT COUNT(*) FROM resources) AS resources, (SELECT COUNT(*) FROM log_records) AS logs`,
        )
        .get();
      expect(counts).toEqual({ spans: 3, events: 1, resources: 2, logs: 2 });
    } finally {
      db.close();
    }
  });

  it('stores a span repeated inside one request once, the last copy winning', async () => {
    const server = await start();
    const traceId = newTraceId();
    const spanId = newSpanId();
    const event = { name: 'e', timeUnixNano: '1', attributes: [] };
    const link = { traceId: newTraceId(), spanId: newSpanId() };
    const res = await post(
      server,
      tracesRequest([
        jsonSpan(traceId, { spanId, name: 'first', events: [event], links: [link] }),
        jsonSpan(traceId, { spanId, name: 'second', events: [event], links: [link] }),
      ]),
    );
    expect(res.status).toBe(200);
    const spans = server.traceStore.listSpans(traceId);
    expect(spans.map((s) => [s.name, s.events.length, s.links.length])).toEqual([['second', 1, 1]]);
  });

  it('stores re-sent spans once, replacing their events and links', async () => {
    const server = await start();
    const traceId = newTraceId();
    const spanId = newSpanId();
    const event = { name: 'first', timeUnixNano: '1', attributes: [] };
    await post(server, tracesRequest([jsonSpan(traceId, { spanId, events: [event, event] })]));
    await post(
      server,
      tracesRequest([jsonSpan(traceId, { spanId, events: [{ ...event, name: 'second' }] })]),
    );
    const spans = server.traceStore.listSpans(traceId);
    expect(spans).toHaveLength(1);
    expect(spans[0]?.events.map((e) => e.name)).toEqual(['second']);
  });

  it('copies committed spans into the database file in the background, long before the WAL is full', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-store-'));
    dirs.push(dataDir);
    const server = await start(dataDir);
    const traceId = newTraceId();
    expect((await post(server, tracesRequest([jsonSpan(traceId), jsonSpan(traceId)]))).status).toBe(200);

    // The database file alone (without its WAL) holds the spans only once a checkpoint copied
    // them there. Two spans are far below the writer's own checkpoint threshold (8,000 pages), so
    // only the checkpoint thread can have done it.
    const copy = join(dataDir, 'copy.sqlite');
    const spansInFile = (): number => {
      copyFileSync(join(dataDir, DATABASE_FILE), copy);
      const db = new DatabaseSync(copy);
      try {
        const row = db
          .prepare(
            'SELECT COUNT(*) AS n FROM spans WHERE trace_no = (SELECT trace_no FROM traces WHERE trace_id = ?)',
          )
          .get(traceId);
        return Number((row as { n: number }).n);
      } catch {
        return 0; // copied while a checkpoint was writing it: look again
      } finally {
        db.close();
        rmSync(copy, { force: true });
      }
    };
    // No time limit of its own: on a loaded machine the checkpoint thread only comes later.
    await waitUntil(() => spansInFile() === 2, 'a checkpoint to copy the spans into the file', 50);
    expect(server.traceStore.getTraceSummary(traceId)?.spanCount).toBe(2);
  });

  it('stores text as TEXT and times as INTEGER, whatever the characters, and reads them back unchanged', async () => {
    const server = await start();
    const traceId = newTraceId();
    const spanId = newSpanId();
    const name = 'résumé 👋 \u00e9\ud83d'; // accents, an emoji, a lone surrogate
    const attributes = [{ key: 'ключ', value: { stringValue: '値 "quoted" \\ \n' } }];
    const res = await post(
      server,
      tracesRequest([
        jsonSpan(traceId, {
          spanId,
          name,
          traceState: '',
          attributes,
          startTimeUnixNano: '9223372036854775807',
          events: [{ name: 'ev ✓', timeUnixNano: '7', attributes }],
          links: [{ traceId: newTraceId(), spanId: newSpanId(), traceState: 'k=v', attributes }],
        }),
      ]),
    );
    expect(res.status).toBe(200);
    const [span] = server.traceStore.listSpans(traceId);
    expect(span).toMatchObject({ spanId, name: 'résumé 👋 é\ufffd', traceState: '', attributes });
    expect(span?.startTimeUnixNano).toBe('9223372036854775807');
    expect(span?.events).toMatchObject([{ name: 'ev ✓', timeUnixNano: '7', attributes }]);
    expect(span?.links).toMatchObject([{ traceState: 'k=v', attributes }]);

    const db = new DatabaseSync(join(server.dataDir, DATABASE_FILE), { readOnly: true });
    try {
      const types = db
        .prepare(
          `SELECT typeof(span_id) AS id, typeof(name) AS name, typeof(trace_state) AS state,
             typeof(attributes) AS attributes, typeof(start_time_unix_nano) AS time FROM spans WHERE trace_no = (SELECT trace_no FROM traces WHERE trace_id = ?)`,
        )
        .get(traceId);
      expect({ ...types }).toEqual({
        id: 'text',
        name: 'text',
        state: 'text',
        attributes: 'text',
        time: 'integer',
      });
      const event = db
        .prepare(
          'SELECT typeof(name) AS name, typeof(time_unix_nano) AS time FROM span_events WHERE trace_no = (SELECT trace_no FROM traces WHERE trace_id = ?)',
        )
        .get(traceId);
      expect({ ...event }).toEqual({ name: 'text', time: 'integer' });
    } finally {
      db.close();
    }
  });

  it('stores span and log attributes as JSON that reads back the same, from the body as sent or serialized', async () => {
    const server = await start();
    const db = new DatabaseSync(join(server.dataDir, DATABASE_FILE), { readOnly: true });
    const storedText = (table: 'spans' | 'log_records', traceId: string) =>
      (
        db
          .prepare(
            `SELECT attributes FROM ${table} WHERE trace_no = (SELECT trace_no FROM traces WHERE trace_id = ?)`,
          )
          .get(traceId) as {
          attributes: string;
        }
      ).attributes;
    const send = (signal: 'traces' | 'logs', contentType: string, body: string | Uint8Array) =>
      fetch(`${server.origin}/api/v1/otlp/v1/${signal}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.keys.tracing}`, 'content-type': contentType },
        body,
      });
    try {
      const attributes = [
        str('gen_ai.input.messages', '[{"role":"user","content":"say \\"hi\\""}]'),
        int('n', 3),
      ];
      const pretty = (request: unknown) => JSON.stringify(request, null, 2);
      const cases = [
        // ASCII JSON in the stored form: stored as the client wrote it, spacing included.
        { body: (t: string) => pretty(tracesRequest([jsonSpan(t, { attributes })])), asSent: true },
        // An integer as a JSON number is not the stored form: serialized after normalizing.
        {
          body: (t: string) =>
            pretty(tracesRequest([jsonSpan(t, { attributes: [{ key: 'n', value: { intValue: 3 } }] })])),
          asSent: false,
        },
        // Not ASCII: text positions are not byte positions, so serialized.
        {
          body: (t: string) => pretty(tracesRequest([jsonSpan(t, { attributes, name: 'ünïcode' })])),
          asSent: false,
        },
        // A media-file key: serialized, so the file queries find it spelled as they look for it.
        {
          body: (t: string) =>
            pretty(tracesRequest([jsonSpan(t, { attributes: [...attributes, str('svc.blobs', '[]')] })])),
          asSent: false,
        },
      ];
      for (const { body, asSent } of cases) {
        const traceId = newTraceId();
        const text = body(traceId);
        expect((await send('traces', 'application/json', text)).status).toBe(200);
        const stored = storedText('spans', traceId);
        const sent = (
          (JSON.parse(text) as ReturnType<typeof tracesRequest>).resourceSpans[0] as {
            scopeSpans: { spans: { attributes: unknown }[] }[];
          }
        ).scopeSpans[0]!.spans[0]!.attributes;
        expect(stored.includes('\n  ')).toBe(asSent);
        expect(JSON.parse(stored)).toEqual(
          JSON.parse(JSON.stringify(sent).replace('"intValue":3', '"intValue":"3"')),
        );
        expect(server.traceStore.listSpans(traceId)[0]?.attributes).toEqual(JSON.parse(stored));
      }

      // Protobuf: serialized straight from the attribute bytes, to the same text as JSON's.
      const traceId = newTraceId();
      const request = tracesRequest([jsonSpan(traceId, { attributes })]);
      expect((await send('traces', 'application/x-protobuf', encodeTracesProto(request))).status).toBe(200);
      expect(storedText('spans', traceId)).toBe(JSON.stringify(attributes));

      const logTrace = newTraceId();
      const log = { traceId: logTrace, spanId: newSpanId(), body: { stringValue: 'b' }, attributes };
      expect((await send('logs', 'application/json', pretty(logsRequest([log])))).status).toBe(200);
      expect(JSON.parse(storedText('log_records', logTrace))).toEqual(attributes);
      expect(storedText('log_records', logTrace)).toContain('\n  ');
      const protoTrace = newTraceId();
      const protoLog = encodeLogsProto(logsRequest([{ ...log, traceId: protoTrace }]));
      expect((await send('logs', 'application/x-protobuf', protoLog)).status).toBe(200);
      expect(storedText('log_records', protoTrace)).toBe(JSON.stringify(attributes));
      expect(server.traceStore.listLogs(protoTrace)[0]?.attributes).toEqual(attributes);
    } finally {
      db.close();
    }
  });
});
