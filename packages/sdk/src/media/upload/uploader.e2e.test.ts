/**
 * The uploader against the reference server: retries under injected faults (429, 503, reset) at
 * each step, `Retry-After` honoured, 412 and `exists` taken as stored, expired links and shutdown
 * ending uploads as fallbacks.
 */
import { type RunningServer, startServer } from '@svc-run/server';
import { waitUntil } from '@svc-run/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../http/undici.js';
import { bytesFile, bytesOf, traceIdOf } from './__fixtures__/found-files.js';
import { downloadFile } from './__fixtures__/media-server.js';
import type { UploadJob, UploadOrigin } from './upload-job.js';
import { Uploader, type UploaderOptions } from './uploader.js';

let server: RunningServer;
const dispatcher = new Agent({ connections: 8 });
beforeAll(async () => {
  server = await startServer({ faultInjection: true });
});
afterEach(() => server.faults!.clear());
afterAll(async () => {
  await dispatcher.close();
  await server.close();
});

interface Harness {
  uploader: Uploader;
  uploaded: number;
  fallbacks: { origin: UploadOrigin; count: number; reason: string }[];
  waits: number[];
}

/**
 * An uploader on `target`, with the longest export timeout (a loaded machine only makes a step
 * slower, never a retry or a fallback); waits between attempts are recorded and last at most 50 ms.
 */
function harness(options: Partial<UploaderOptions> = {}, target: RunningServer = server): Harness {
  const h: Harness = { uploaded: 0, fallbacks: [], waits: [], uploader: undefined as unknown as Uploader };
  h.uploader = new Uploader({
    baseUrl: target.origin,
    apiKey: target.keys.tracing,
    timeoutMillis: 60_000,
    dispatcher,
    sink: {
      uploaded: () => {
        h.uploaded++;
      },
      fallback: (o, count, reason) => {
        h.fallbacks.push({ origin: o, count, reason });
      },
    },
    sleep: async (millis, signal) => {
      h.waits.push(millis);
      await new Promise((resolve) => setTimeout(resolve, Math.min(millis, 50)));
      signal.throwIfAborted();
    },
    ...options,
  });
  return h;
}

async function upload(h: Harness, ...jobs: UploadJob[]): Promise<void> {
  const batch = h.uploader.batch();
  for (const job of jobs) expect(batch.offer(job)).toBeUndefined();
  batch.commit();
  await h.uploader.drain();
}

/** Whether the trace holds these bytes: downloaded through the link route, same digest. */
async function held(traceId: string, sha256: string, target: RunningServer = server): Promise<boolean> {
  const file = await downloadFile(target, traceId, sha256);
  return file.status === 200 && file.sha256 === sha256;
}

describe('Uploader against the reference server', () => {
  it('stores a file: reserve, PUT, complete', async () => {
    const h = harness();
    const file = bytesFile(bytesOf(70_000, 1));
    await upload(h, { traceId: traceIdOf(101), file });
    expect(h).toMatchObject({ uploaded: 1, fallbacks: [] });
    expect(await held(traceIdOf(101), file.sha256)).toBe(true);
  });

  for (const [r, route] of (['blobs.reserve', 'blobs.upload', 'blobs.complete'] as const).entries()) {
    it(`retries ${route} on 429, 503 and a reset connection`, async () => {
      for (const [i, fault] of [
        { kind: 'status', status: 429, retryAfterSeconds: 1 },
        { kind: 'status', status: 503, retryAfterSeconds: 0 },
        { kind: 'reset' },
      ].entries()) {
        const h = harness();
        server.faults!.inject(route, fault as never, 2);
        const traceId = traceIdOf(200 + 10 * r + i);
        const file = bytesFile(bytesOf(3_000, 200 + 10 * r + i));
        await upload(h, { traceId, file });
        expect(h).toMatchObject({ uploaded: 1, fallbacks: [] });
        expect(server.faults!.pending(route)).toBe(0);
        expect(h.waits).toHaveLength(2);
        expect(await held(traceId, file.sha256)).toBe(true);
      }
    });
  }

  it('waits what Retry-After asks for, not a backoff of its own', async () => {
    const h = harness();
    server.faults!.inject('blobs.reserve', { kind: 'status', status: 429, retryAfterSeconds: 7 });
    server.faults!.inject('blobs.complete', { kind: 'status', status: 503, retryAfterSeconds: 2 });
    await upload(h, { traceId: traceIdOf(300), file: bytesFile(bytesOf(100, 300)) });
    expect(h.uploaded).toBe(1);
    expect(h.waits).toEqual([7_000, 2_000]);
  });

  it('falls back after 3 attempts, never a 4th', async () => {
    const h = harness();
    server.faults!.inject('blobs.upload', { kind: 'status', status: 503, retryAfterSeconds: 0 }, 4);
    const file = bytesFile(bytesOf(100, 301));
    await upload(h, { traceId: traceIdOf(301), file });
    expect(h.fallbacks).toEqual([
      { origin: 'traces', count: 1, reason: 'the service refused the upload (HTTP 503 unavailable)' },
    ]);
    expect(server.faults!.pending('blobs.upload')).toBe(1);
    expect(await held(traceIdOf(301), file.sha256)).toBe(false);
  });

  it('takes `exists` as stored without sending the bytes again', async () => {
    const file = bytesFile(bytesOf(5_000, 400));
    await upload(harness(), { traceId: traceIdOf(400), file });
    // A second uploader does not know; the service does. Any PUT would meet these faults.
    const h = harness();
    server.faults!.inject('blobs.upload', { kind: 'status', status: 503, retryAfterSeconds: 0 }, 3);
    await upload(h, { traceId: traceIdOf(400), file });
    expect(h).toMatchObject({ uploaded: 1, fallbacks: [] });
    expect(server.faults!.pending('blobs.upload')).toBe(3);
  });

  it('takes a 412 on the PUT as stored (the bytes arrived by another upload meanwhile)', async () => {
    const file = bytesFile(bytesOf(5_000, 401));
    const traceId = traceIdOf(401);
    // The first PUT to arrive (this uploader's) is held until the test releases it.
    server.faults!.inject('blobs.upload', { kind: 'hang' });
    const h = harness();
    const batch = h.uploader.batch();
    batch.offer({ traceId, file });
    batch.commit();
    await waitUntil(() => server.faults!.held('blobs.upload') === 1, 'the first PUT to be held');
    // Meanwhile another uploader stores the same bytes in the same trace.
    const other = harness();
    await upload(other, { traceId, file });
    expect(other.uploaded).toBe(1);
    expect(server.faults!.release('blobs.upload')).toBe(1);
    await h.uploader.drain();
    expect(h).toMatchObject({ uploaded: 1, fallbacks: [] });
  });

  it('uploads the same bytes in the same trace once', async () => {
    const h = harness();
    const bytes = bytesOf(10_000, 402);
    // Any second reservation would meet this fault and fall back.
    await upload(
      h,
      { traceId: traceIdOf(402), file: bytesFile(bytes, 'a#') },
      { traceId: traceIdOf(402), file: bytesFile(bytes, 'b#') },
    );
    server.faults!.inject('blobs.reserve', { kind: 'status', status: 503, retryAfterSeconds: 0 }, 3);
    await upload(h, { traceId: traceIdOf(402), file: bytesFile(bytes, 'c#') });
    expect(h).toMatchObject({ uploaded: 1, fallbacks: [] });
    expect(server.faults!.pending('blobs.reserve')).toBe(3);
  });

  it('ends uploads on abort (shutdown) as fallbacks, and stores nothing of them', async () => {
    const h = harness();
    // Held until afterEach releases them: no upload can end by itself.
    server.faults!.inject('blobs.upload', { kind: 'hang' }, 4);
    const files = [1, 2, 3, 4, 5].map((i) => bytesFile(bytesOf(1_000, 500 + i)));
    const batch = h.uploader.batch();
    for (const file of files) batch.offer({ traceId: traceIdOf(500), file });
    batch.commit();
    // Four uploads run (the most at once), each held in its PUT; the fifth waits in the queue.
    await waitUntil(() => server.faults!.held('blobs.upload') === 4, 'four PUTs to be held');
    h.uploader.abort();
    await h.uploader.drain();
    expect(h.uploaded).toBe(0);
    expect(h.fallbacks.reduce((n, f) => n + f.count, 0)).toBe(5);
    expect(new Set(h.fallbacks.map((f) => f.reason))).toEqual(new Set(['the upload was ended by shutdown']));
    for (const file of files) expect(await held(traceIdOf(500), file.sha256)).toBe(false);
  });
});

describe('Uploader with expired upload links', () => {
  let expiring: RunningServer;
  beforeAll(async () => {
    expiring = await startServer({ uploadLinkTtlMillis: 0 });
  });
  afterAll(async () => {
    await expiring.close();
  });

  it('falls back when the PUT link has expired, naming the code', async () => {
    const h = harness({}, expiring);
    const file = bytesFile(bytesOf(1_000, 600));
    await upload(h, { traceId: traceIdOf(600), file });
    expect(h.uploaded).toBe(0);
    expect(h.fallbacks).toEqual([
      { origin: 'traces', count: 1, reason: 'the service refused the upload (HTTP 403 link_expired)' },
    ]);
    expect(await held(traceIdOf(600), file.sha256, expiring)).toBe(false);
  });
});
