import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../start-server.js';
import {
  blobPath,
  blobsAttribute,
  call,
  downloadLink,
  entryOf,
  errorOf,
  fileEvent,
  ingest,
  sha256Of,
  upload,
} from '../../test-support/media-fixtures.js';
import {
  jsonSpan,
  logsRequest,
  newSpanId,
  newTraceId,
  tracesRequest,
} from '../../test-support/otlp-fixtures.js';
import { useServer } from '../../test-support/server-fixture.js';
import { evalRequests, UNKNOWN_ID } from '../test-support/eval-requests.js';
import { datasetVersion, experiment } from '../test-support/eval-setup.js';

const fx = useServer({ faultInjection: true });
const api = evalRequests(fx);

interface Link {
  url: string;
  name: string | null;
  sha256: string;
  size: number;
  contentType: string;
  expiresAt: string;
}

/** Completes an execution of a new experiment over `traceId` with trace evidence; returns the snapshot ID. */
async function snapshotOf(traceId: string): Promise<string> {
  const { caseIds, versionId } = await datasetVersion(api, [{ externalKey: 'one', inputs: {} }]);
  const { id } = await experiment(api, versionId);
  const started = await api.post<{ id: string }>(`/experiments/${id}/cases/${caseIds[0]}/executions`, {
    traceExternalId: traceId,
  });
  expect(started.status).toBe(200);
  const done = await api.post<{ traceSnapshotId: string }>(`/executions/${started.body.id}/complete`, {
    state: 'succeeded',
    traceEvidence: 'required',
  });
  expect(done.status).toBe(200);
  return done.body.traceSnapshotId;
}

function snapshotLink(
  snapshotId: string,
  sha256: string,
  options: { key?: string | null; spanId?: string } = {},
): Promise<Response> {
  const query = options.spanId === undefined ? '' : `?spanId=${options.spanId}`;
  const key = options.key === null ? undefined : (options.key ?? fx.server.keys.readWrite);
  return call(fx.server, `/api/v1/evals/trace-snapshots/${snapshotId}/blobs/${sha256}${query}`, {
    ...(key === undefined ? {} : { key }),
  });
}

/**
 * A trace whose first span lists `stored` (uploaded, named) and `neverUploaded` in `svc.blobs`,
 * records `event` (uploaded) with a `svc.file` event; a log record correlated with the second
 * span lists `inLog` (uploaded); `unlisted` is uploaded under the trace but nothing lists it.
 */
async function seededSnapshot() {
  const traceId = newTraceId();
  const [first, second] = [newSpanId(), newSpanId()];
  const files = {
    stored: randomBytes(3000),
    neverUploaded: randomBytes(30),
    event: randomBytes(31),
    inLog: randomBytes(32),
    unlisted: randomBytes(33),
  };
  for (const bytes of [files.stored, files.event, files.inLog, files.unlisted]) {
    await upload(fx.server, traceId, bytes);
  }
  await ingest(
    fx.server,
    'traces',
    tracesRequest([
      jsonSpan(traceId, {
        spanId: first,
        attributes: [
          blobsAttribute([
            entryOf(files.stored, { name: 'chart.png' }),
            entryOf(files.neverUploaded, { key: 'input.value#' }),
          ]),
        ],
        events: [fileEvent(files.event, { name: 'report.pdf' })],
      }),
      jsonSpan(traceId, { spanId: second, startTimeUnixNano: '1763740800200000000' }),
    ]),
  );
  await ingest(
    fx.server,
    'logs',
    logsRequest([
      {
        timeUnixNano: '1763740800600000000',
        traceId,
        spanId: second,
        attributes: [blobsAttribute([entryOf(files.inLog, { key: 'body#/0/parts/0', name: 'log.png' })])],
      },
    ]),
  );
  const snapshotId = await snapshotOf(traceId);
  return { traceId, first, second, files, snapshotId };
}

describe('GET /api/v1/evals/trace-snapshots/{snapshotId}/blobs/{sha256}', () => {
  it('answers a listed, stored file like the trace route, and its link downloads the bytes without a key', async () => {
    const { traceId, first, files, snapshotId } = await seededSnapshot();
    const sha256 = sha256Of(files.stored);
    const res = await snapshotLink(snapshotId, sha256);
    expect(res.status).toBe(200);
    const link = (await res.json()) as Link;
    expect(link).toEqual({
      url: expect.stringMatching(new RegExp(`^${fx.server.origin}/api/v1/blobs/downloads/${sha256}\\?`)),
      name: 'chart.png',
      sha256,
      size: 3000,
      contentType: 'image/png',
      expiresAt: expect.any(String),
    });
    const fromTrace = (await (await downloadLink(fx.server, traceId, sha256)).json()) as Link;
    expect({ ...link, url: '', expiresAt: '' }).toEqual({ ...fromTrace, url: '', expiresAt: '' });
    const file = await call(fx.server, link.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('content-disposition')).toContain('filename="chart.png"');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(files.stored);
    // With the listing span's ID: the same file and name.
    const scoped = (await (await snapshotLink(snapshotId, sha256, { spanId: first })).json()) as Link;
    expect(scoped).toMatchObject({ name: 'chart.png', size: 3000 });
  });

  it('finds files of svc.file events and of correlated log records, with and without spanId', async () => {
    const { first, second, files, snapshotId } = await seededSnapshot();
    const named = async (bytes: Uint8Array, spanId?: string) => {
      const res = await snapshotLink(snapshotId, sha256Of(bytes), spanId === undefined ? {} : { spanId });
      expect(res.status).toBe(200);
      return ((await res.json()) as Link).name;
    };
    expect(await named(files.event)).toBe('report.pdf');
    expect(await named(files.event, first)).toBe('report.pdf');
    expect(await named(files.inLog)).toBe('log.png');
    expect(await named(files.inLog, second)).toBe('log.png');
    // Like the trace route, spanId limits where the name is read: another span of the snapshot
    // does not list it, so no name.
    expect(await named(files.stored, second)).toBeNull();
  });

  it('tells missing (listed, never uploaded) from not_found (not listed by the snapshot)', async () => {
    const { traceId, first, second, files, snapshotId } = await seededSnapshot();
    for (const options of [{}, { spanId: first }]) {
      const missing = await errorOf(await snapshotLink(snapshotId, sha256Of(files.neverUploaded), options));
      expect(missing).toMatchObject({ status: 404, code: 'missing' });
      expect(missing.message).toBe(
        'A record of this trace snapshot lists the file, but its bytes were never uploaded.',
      );
    }
    // Limited to a span that does not list it: nothing lists it there.
    expect(
      await errorOf(await snapshotLink(snapshotId, sha256Of(files.neverUploaded), { spanId: second })),
    ).toMatchObject({ status: 404, code: 'not_found' });
    // Held by the trace, but no record of the snapshot lists it: the trace route serves it, the
    // snapshot does not.
    expect((await downloadLink(fx.server, traceId, sha256Of(files.unlisted))).status).toBe(200);
    const unlisted = await errorOf(await snapshotLink(snapshotId, sha256Of(files.unlisted)));
    expect(unlisted).toEqual({
      status: 404,
      code: 'not_found',
      message: 'This trace snapshot has no file with this sha256.',
    });
    expect(await errorOf(await snapshotLink(snapshotId, sha256Of(randomBytes(8))))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
    const unknown = await errorOf(await snapshotLink(UNKNOWN_ID, sha256Of(files.stored)));
    expect(unknown).toEqual({ status: 404, code: 'not_found', message: 'No trace snapshot has this ID.' });
  });

  it("judges files from the snapshot's copies: later spans listing a file change nothing", async () => {
    const { traceId, files, snapshotId } = await seededSnapshot();
    await ingest(
      fx.server,
      'traces',
      tracesRequest([
        jsonSpan(traceId, { attributes: [blobsAttribute([entryOf(files.unlisted, { name: 'late.png' })])] }),
      ]),
    );
    expect((await downloadLink(fx.server, traceId, sha256Of(files.unlisted))).status).toBe(200);
    expect(await errorOf(await snapshotLink(snapshotId, sha256Of(files.unlisted)))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
    // A later snapshot of the same trace has it.
    const later = await snapshotOf(traceId);
    expect(((await (await snapshotLink(later, sha256Of(files.unlisted))).json()) as Link).name).toBe(
      'late.png',
    );
  });

  it('records, when the snapshot is taken, which listed files its trace held; one uploaded later is served', async () => {
    const { files, snapshotId, traceId } = await seededSnapshot();
    const db = new DatabaseSync(join(fx.server.dataDir, DATABASE_FILE), { readOnly: true });
    try {
      const rows = db
        .prepare(
          'SELECT sha256, size, content_type, stored_at FROM eval_trace_snapshot_files WHERE snapshot_id = ? ORDER BY sha256',
        )
        .all(snapshotId) as { sha256: string; size: number | null; content_type: string | null }[];
      const expected = [
        { sha256: sha256Of(files.stored), size: 3000, content_type: 'image/png' },
        { sha256: sha256Of(files.neverUploaded), size: null, content_type: null },
        { sha256: sha256Of(files.event), size: 31, content_type: 'image/png' },
        { sha256: sha256Of(files.inLog), size: 32, content_type: 'image/png' },
      ].sort((a, b) => a.sha256.localeCompare(b.sha256));
      expect(rows.map(({ sha256, size, content_type }) => ({ sha256, size, content_type }))).toEqual(
        expected,
      );
    } finally {
      db.close();
    }
    // The upload was still in flight when the snapshot was taken: once stored under the trace,
    // the snapshot serves it.
    await upload(fx.server, traceId, files.neverUploaded, { key: 'input.value#' });
    const res = await snapshotLink(snapshotId, sha256Of(files.neverUploaded));
    expect(res.status).toBe(200);
    const file = await call(fx.server, ((await res.json()) as Link).url);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(files.neverUploaded);
  });

  it('needs a Read-and-write key: Read, Tracing and setup keys get 403, no key 401', async () => {
    const { files, snapshotId } = await seededSnapshot();
    const sha256 = sha256Of(files.stored);
    expect((await snapshotLink(snapshotId, sha256)).status).toBe(200);
    for (const key of [fx.server.keys.read, fx.server.keys.tracing, fx.server.keys.setup]) {
      const error = await errorOf(await snapshotLink(snapshotId, sha256, { key }));
      expect(error).toMatchObject({ status: 403, code: 'forbidden' });
      expect(error.message).toContain('Read and write');
      expect(error.message).not.toContain(key);
    }
    expect(await errorOf(await snapshotLink(snapshotId, sha256, { key: null }))).toMatchObject({
      status: 401,
      code: 'unauthorized',
    });
  });

  it('validates the snapshot ID, digest and span ID', async () => {
    const sha256 = sha256Of('x');
    const cases: [string, string][] = [
      [`/api/v1/evals/trace-snapshots/nope/blobs/${sha256}`, 'snapshotId'],
      [`/api/v1/evals/trace-snapshots/${UNKNOWN_ID}/blobs/${sha256.toUpperCase()}`, 'sha256'],
      [`/api/v1/evals/trace-snapshots/${UNKNOWN_ID}/blobs/${sha256}?spanId=xyz`, 'spanId'],
      [`/api/v1/evals/trace-snapshots/${UNKNOWN_ID}/blobs/${sha256}?spanId=${'0'.repeat(16)}`, 'spanId'],
    ];
    for (const [path, field] of cases) {
      const error = await errorOf(await call(fx.server, path, { key: fx.server.keys.readWrite }));
      expect(error).toMatchObject({ status: 400, code: 'invalid_request' });
      expect(error.message).toContain(field);
    }
  });

  it('answers 503 unavailable when the stored bytes cannot be read, and takes injected faults', async () => {
    const { files, snapshotId, traceId } = await seededSnapshot();
    const sha256 = sha256Of(files.stored);
    rmSync(blobPath(fx.server, sha256));
    expect(await errorOf(await snapshotLink(snapshotId, sha256))).toMatchObject({
      status: 503,
      code: 'unavailable',
    });
    await upload(fx.server, traceId, files.stored);
    fx.server.faults!.inject('evals.traceSnapshots.blob', { kind: 'status', status: 503 });
    const injected = await snapshotLink(snapshotId, sha256);
    expect(injected.status).toBe(503);
    expect(injected.headers.get('retry-after')).toBe('1');
    expect((await snapshotLink(snapshotId, sha256)).status).toBe(200);
  });
});
