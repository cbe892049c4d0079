/**
 * The uploader against a stand-in of the upload routes (see `__fixtures__/upload-stub.ts`): what
 * it sends, and the answers the reference server does not give. Retries, faults, expired links
 * and shutdown against the reference server are in `uploader.e2e.test.ts`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../http/undici.js';
import { useDiagLogger } from '../../test-support/diag-logger.js';
import { waitUntil } from '../../test-support/wait-until.js';
import { base64File, bytesFile, bytesOf, pathFile, traceIdOf, utf8File } from './__fixtures__/found-files.js';
import { startUploadStub, type UploadStub } from './__fixtures__/upload-stub.js';
import type { UploadJob, UploadOrigin } from './upload-job.js';
import { Uploader, type UploaderOptions } from './uploader.js';

const KEY = 'svc_test_key_not_a_secret';
let stub: UploadStub;
let dir: string;
const dispatcher = new Agent({ connections: 8 });

beforeAll(async () => {
  stub = await startUploadStub();
  dir = mkdtempSync(join(tmpdir(), 'svc-uploader-'));
});
afterEach(() => {
  stub.requests.length = 0;
  stub.overrides.length = 0;
  stub.stored.clear();
  stub.holdPuts = undefined;
  stub.concurrency.max = 0;
});
afterAll(async () => {
  await stub.close();
  await dispatcher.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Harness {
  uploader: Uploader;
  uploaded: number;
  fallbacks: { origin: UploadOrigin; count: number; reason: string }[];
  waits: number[];
}

/** An uploader on the stand-in, with the longest export timeout; waits between attempts are recorded. */
function harness(options: Partial<UploaderOptions> = {}): Harness {
  const h: Harness = { uploaded: 0, fallbacks: [], waits: [], uploader: undefined as unknown as Uploader };
  h.uploader = new Uploader({
    baseUrl: stub.origin,
    apiKey: KEY,
    timeoutMillis: 60_000,
    dispatcher,
    sink: {
      uploaded: () => {
        h.uploaded++;
      },
      fallback: (origin, count, reason) => {
        h.fallbacks.push({ origin, count, reason });
      },
    },
    sleep: async (millis) => {
      h.waits.push(millis);
    },
    ...options,
  });
  return h;
}

/** Offers `jobs` in one batch and commits it; returns the refusals. */
function submit(uploader: Uploader, ...jobs: UploadJob[]) {
  const batch = uploader.batch();
  const refusals = jobs.map((job) => batch.offer(job));
  batch.commit();
  return refusals;
}

const puts = () => stub.requests.filter((r) => r.method === 'PUT');
const posts = (path: string) => stub.requests.filter((r) => r.method === 'POST' && r.path === path);

describe('Uploader (contract stand-in)', () => {
  it('reserves with the key, PUTs exactly the returned headers without Authorization, then completes', async () => {
    const h = harness();
    const bytes = bytesOf(5_000);
    const file = bytesFile(bytes);
    const traceId = traceIdOf(1);
    expect(submit(h.uploader, { traceId, file })).toEqual([undefined]);
    await h.uploader.drain();
    expect(h).toMatchObject({ uploaded: 1, fallbacks: [] });
    const [reserve] = posts('/api/v1/otlp/blobs');
    expect(reserve!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(reserve!.json).toEqual({
      traceId,
      sha256: file.sha256,
      byteSize: 5_000,
      contentType: 'image/png',
      key: file.key,
    });
    const [put] = puts();
    expect(put!.headers.authorization).toBeUndefined();
    expect(put!.headers['content-type']).toBe('application/octet-stream');
    expect(put!.headers['content-length']).toBe('5000');
    expect(put!.put).toEqual({ size: 5_000, sha256: file.sha256, complete: true });
    expect(posts('/api/v1/otlp/blobs/complete').map((r) => r.json)).toEqual([
      { traceId, sha256: file.sha256 },
    ]);
    expect(stub.stored.has(`${traceId}/${file.sha256}`)).toBe(true);
  });

  it('sends no PUT when the trace already holds the bytes (exists), and counts the file as stored', async () => {
    const h = harness();
    const file = bytesFile(bytesOf(100, 2));
    stub.stored.add(`${traceIdOf(2)}/${file.sha256}`);
    submit(h.uploader, { traceId: traceIdOf(2), file });
    await h.uploader.drain();
    expect(h.uploaded).toBe(1);
    expect(puts()).toHaveLength(0);
    expect(posts('/api/v1/otlp/blobs/complete')).toHaveLength(0);
  });

  it('treats a 412 on the PUT as stored, without completing', async () => {
    const h = harness();
    stub.overrides.push((r) =>
      r.method === 'PUT'
        ? { status: 412, body: { error: { code: 'already_stored', message: '' } } }
        : undefined,
    );
    submit(h.uploader, { traceId: traceIdOf(3), file: bytesFile(bytesOf(10, 3)) });
    await h.uploader.drain();
    expect(h).toMatchObject({ uploaded: 1, fallbacks: [] });
    expect(posts('/api/v1/otlp/blobs/complete')).toHaveLength(0);
  });

  it('decodes base64 text slice by slice and encodes long UTF-8 text without splitting surrogate pairs', async () => {
    const h = harness();
    const big = bytesOf(3 * 1024 * 1024 + 17, 4);
    const text = '😀é-'.repeat(200_000);
    submit(
      h.uploader,
      { traceId: traceIdOf(4), file: base64File(big) },
      { traceId: traceIdOf(4), file: utf8File(text) },
    );
    await h.uploader.drain();
    expect(h).toMatchObject({ uploaded: 2, fallbacks: [] });
    expect(
      puts()
        .map((r) => r.put!.size)
        .sort((a, b) => a - b),
    ).toEqual([big.length, Buffer.byteLength(text)].sort((a, b) => a - b));
  });

  it('streams a file from disk, and refuses one changed since it was recorded without sending it whole', async () => {
    const h = harness();
    const path = join(dir, 'report.bin');
    const bytes = bytesOf(2 * 1024 * 1024 + 5, 5);
    writeFileSync(path, bytes);
    submit(h.uploader, { traceId: traceIdOf(5), file: pathFile(path, bytes) });
    await h.uploader.drain();
    expect(h).toMatchObject({ uploaded: 1, fallbacks: [] });
    expect(puts()[0]!.put).toMatchObject({ size: bytes.length, complete: true });

    // Same size and modification time as recorded, other bytes: found by the digest while streaming.
    const changed = Buffer.from(bytes);
    changed[changed.length - 1]! ^= 0xff;
    writeFileSync(path, changed);
    const file = pathFile(path, bytes);
    submit(h.uploader, { traceId: traceIdOf(55), file });
    await h.uploader.drain();
    expect(h.fallbacks).toEqual([
      { origin: 'traces', count: 1, reason: 'the file changed after it was recorded' },
    ]);
    // The stand-in may see the aborted body (even the request, under Bun) after the uploader moved on.
    await waitUntil(() => puts()[1]?.put, 'the stand-in to read the aborted PUT');
    expect(puts()).toHaveLength(2);
    expect(puts()[1]!.put).toMatchObject({ complete: false });
    expect(puts()[1]!.put!.size).toBeLessThan(bytes.length);
    expect(stub.stored.has(`${traceIdOf(55)}/${file.sha256}`)).toBe(false);

    // A different size is found before any request.
    writeFileSync(path, bytes.subarray(0, 10));
    const before = stub.requests.length;
    submit(h.uploader, { traceId: traceIdOf(56), file });
    await h.uploader.drain();
    expect(h.fallbacks.at(-1)!.reason).toBe('the file changed after it was recorded');
    expect(stub.requests.length).toBe(before);
  });

  it('stops offering uploads once the service has no upload route', async () => {
    const h = harness();
    stub.overrides.push(() => ({ status: 404, body: { error: { code: 'not_found', message: 'x' } } }));
    submit(h.uploader, { traceId: traceIdOf(6), file: bytesFile(bytesOf(10, 6)) });
    await h.uploader.drain();
    expect(h.fallbacks).toEqual([
      { origin: 'traces', count: 1, reason: 'the service has no upload route (HTTP 404)' },
    ]);
    expect(h.uploader.refusal()).toBe('no-route');
    expect(submit(h.uploader, { traceId: traceIdOf(6), file: bytesFile(bytesOf(10, 7)) })).toEqual([
      'no-route',
    ]);
  });

  it('falls back on a reservation answer that is not valid, naming neither key nor body', async () => {
    const h = harness();
    stub.overrides.push(() => ({
      status: 200,
      body: { status: 'upload', url: 'ftp://elsewhere/x', secret: KEY },
    }));
    submit(h.uploader, { traceId: traceIdOf(7), file: bytesFile(bytesOf(10, 8)), origin: 'logs' });
    await h.uploader.drain();
    expect(h.fallbacks).toEqual([
      { origin: 'logs', count: 1, reason: "the service's reservation answer is not valid" },
    ]);
    expect(puts()).toHaveLength(0);
  });

  it('names the contract error code of a refusal, but never an unknown word from the body', async () => {
    const h = harness();
    stub.overrides.push(() => ({ status: 400, body: { error: { code: 'invalid_request', message: KEY } } }));
    stub.overrides.push(() => ({
      status: 400,
      body: { error: { code: 'secret_word_from_body', message: '' } },
    }));
    submit(h.uploader, { traceId: traceIdOf(8), file: bytesFile(bytesOf(10, 9)) });
    submit(h.uploader, { traceId: traceIdOf(8), file: bytesFile(bytesOf(10, 10)) });
    await h.uploader.drain();
    expect(h.fallbacks.map((f) => f.reason).sort()).toEqual([
      'the service refused the reservation (HTTP 400 invalid_request)',
      'the service refused the reservation (HTTP 400)',
    ]);
  });

  it('waits Retry-After between attempts (capped at 60 s), else a short backoff, at most 3 attempts', async () => {
    const h = harness();
    stub.overrides.push(() => ({ status: 429, headers: { 'retry-after': '7' } }));
    stub.overrides.push(() => ({ status: 503, headers: { 'retry-after': '3600' } }));
    submit(h.uploader, { traceId: traceIdOf(9), file: bytesFile(bytesOf(10, 11)) });
    await h.uploader.drain();
    expect(h).toMatchObject({ uploaded: 1, fallbacks: [] });
    expect(h.waits).toEqual([7_000, 60_000]);

    h.waits.length = 0;
    const putsBefore = puts().length;
    for (let i = 0; i < 3; i++)
      stub.overrides.push((r) => (r.method === 'PUT' ? { status: 500 } : undefined));
    submit(h.uploader, { traceId: traceIdOf(10), file: bytesFile(bytesOf(10, 12)) });
    await h.uploader.drain();
    expect(h.fallbacks).toEqual([
      { origin: 'traces', count: 1, reason: 'the service refused the upload (HTTP 500)' },
    ]);
    expect(h.waits).toHaveLength(2);
    for (const wait of h.waits) expect(wait).toBeLessThanOrEqual(1_200);
    expect(puts().length - putsBefore).toBe(3);
  });

  it('runs at most 4 uploads at once', async () => {
    const h = harness();
    let release!: () => void;
    stub.holdPuts = new Promise((resolve) => {
      release = resolve;
    });
    const jobs = Array.from({ length: 9 }, (_, i) => ({
      traceId: traceIdOf(11),
      file: bytesFile(bytesOf(1000, 100 + i)),
    }));
    submit(h.uploader, ...jobs);
    await waitUntil(() => stub.concurrency.now >= 4, 'four PUTs to be held');
    expect(h.uploader.pending).toBe(9);
    release();
    await h.uploader.drain();
    expect(stub.concurrency.max).toBe(4);
    expect(h.uploaded).toBe(9);
  });

  it('uploads the same bytes in the same trace once; other traces upload their own', async () => {
    const h = harness();
    const bytes = bytesOf(2_000, 13);
    submit(
      h.uploader,
      { traceId: traceIdOf(12), file: bytesFile(bytes, 'a#/0') },
      { traceId: traceIdOf(12), file: base64File(bytes, 'b#/1') },
    );
    submit(h.uploader, { traceId: traceIdOf(12), file: bytesFile(bytes, 'c#') });
    submit(h.uploader, { traceId: traceIdOf(13), file: bytesFile(bytes, 'c#') });
    await h.uploader.drain();
    expect(h.uploaded).toBe(2);
    expect(puts()).toHaveLength(2);
    // Once stored, a later reference needs no request at all.
    const before = stub.requests.length;
    expect(submit(h.uploader, { traceId: traceIdOf(12), file: bytesFile(bytes, 'd#') })).toEqual([undefined]);
    await h.uploader.drain();
    expect(stub.requests.length).toBe(before);
  });

  it('counts every reference to bytes that could not upload as a fallback', async () => {
    const h = harness();
    const bytes = bytesOf(2_000, 14);
    for (let i = 0; i < 3; i++) stub.overrides.push(() => 'reset');
    submit(
      h.uploader,
      { traceId: traceIdOf(14), file: bytesFile(bytes, 'a#') },
      { traceId: traceIdOf(14), file: bytesFile(bytes, 'b#') },
    );
    submit(h.uploader, { traceId: traceIdOf(14), file: bytesFile(bytes, 'c#') });
    await h.uploader.drain();
    expect(h.fallbacks).toHaveLength(1);
    expect(h.fallbacks[0]!.count).toBe(3);
    expect(h.fallbacks[0]!.reason).toMatch(
      /^the service did not answer the reservation( \([A-Z_]+\))? after 3 attempts$/,
    );
  });

  it('keeps the memory budget: refuses what does not fit, admits an oversized value alone', async () => {
    const h = harness({ budgetBytes: 1_000 });
    let release!: () => void;
    stub.holdPuts = new Promise((resolve) => {
      release = resolve;
    });
    const traceId = traceIdOf(15);
    expect(
      submit(
        h.uploader,
        { traceId, file: bytesFile(bytesOf(600, 15)) },
        { traceId, file: bytesFile(bytesOf(600, 16)) },
        { traceId, file: bytesFile(bytesOf(400, 17)) },
      ),
    ).toEqual([undefined, 'budget', undefined]);
    expect(h.uploader.heldBytes).toBe(1_000);
    // A file on disk holds no memory.
    const path = join(dir, 'free.bin');
    const onDisk = bytesOf(5_000, 18);
    writeFileSync(path, onDisk);
    expect(submit(h.uploader, { traceId, file: pathFile(path, onDisk) })).toEqual([undefined]);
    release();
    await h.uploader.drain();
    expect(h.uploader.heldBytes).toBe(0);
    // Larger than the whole budget: admitted when nothing else is held, and then alone.
    expect(
      submit(
        h.uploader,
        { traceId, file: base64File(bytesOf(5_000, 19)) },
        { traceId, file: bytesFile(bytesOf(1, 20)) },
      ),
    ).toEqual([undefined, 'budget']);
    await h.uploader.drain();
    expect(h.uploaded).toBe(4);
  });

  it('cancelling a batch gives its budget back and uploads nothing', async () => {
    const h = harness({ budgetBytes: 1_000 });
    const batch = h.uploader.batch();
    expect(batch.offer({ traceId: traceIdOf(16), file: bytesFile(bytesOf(900, 21)) })).toBeUndefined();
    expect(h.uploader.heldBytes).toBe(900);
    batch.cancel();
    expect(h.uploader.heldBytes).toBe(0);
    await h.uploader.drain();
    expect(stub.requests).toHaveLength(0);
  });

  it('abort() ends queued and running uploads as fallbacks and refuses new files', async () => {
    const h = harness({ concurrency: 1 });
    stub.holdPuts = new Promise(() => undefined);
    submit(
      h.uploader,
      { traceId: traceIdOf(17), file: bytesFile(bytesOf(10, 22)) },
      { traceId: traceIdOf(17), file: bytesFile(bytesOf(10, 23)) },
    );
    await waitUntil(() => stub.concurrency.now >= 1, 'the first PUT to be held');
    h.uploader.abort();
    await h.uploader.drain();
    expect(h.fallbacks).toEqual([
      { origin: 'traces', count: 1, reason: 'the upload was ended by shutdown' },
      { origin: 'traces', count: 1, reason: 'the upload was ended by shutdown' },
    ]);
    expect(submit(h.uploader, { traceId: traceIdOf(17), file: bytesFile(bytesOf(10, 24)) })).toEqual([
      'closed',
    ]);
  });

  it('ends an upload at its deadline (six export timeouts plus 60 s in queue, by default)', async () => {
    const { uploadDeadlineMillis } = await import('./uploader.js');
    expect(uploadDeadlineMillis(10_000)).toBe(120_000);
    expect(uploadDeadlineMillis(60_000)).toBe(420_000);
    const h = harness({ concurrency: 1, deadlineMillis: 100 });
    stub.holdPuts = new Promise(() => undefined);
    // The first hangs in its PUT, the second waits in the queue: both end at the deadline.
    submit(
      h.uploader,
      { traceId: traceIdOf(18), file: bytesFile(bytesOf(10, 25)) },
      { traceId: traceIdOf(18), file: bytesFile(bytesOf(10, 26)) },
    );
    await h.uploader.drain();
    expect(h.fallbacks).toEqual([
      { origin: 'traces', count: 1, reason: 'the upload did not end within its deadline (0.1 s)' },
      { origin: 'traces', count: 1, reason: 'the upload did not end within its deadline (0.1 s)' },
    ]);
    expect(h.uploader.heldBytes).toBe(0);
  });
});

describe('Uploader: a defect', () => {
  const diagnostics = useDiagLogger();

  it('is a fallback whose reason names the cause, told on diag, and not retried', async () => {
    const h = harness();
    const file = utf8File('text');
    // A malformed job (a defect of its maker): its bytes cannot be read to be sent.
    const broken = { ...file, source: { kind: 'utf8', text: undefined } } as unknown as typeof file;
    submit(h.uploader, { traceId: traceIdOf(90), file: broken });
    await h.uploader.drain();
    // The runtime's own words, up to the quoted name: V8 "Cannot read properties of undefined
    // (reading …", Bun "undefined is not an object (evaluating …".
    const reason = expect.stringMatching(
      /^the upload failed unexpectedly \(TypeError: [^'"]*undefined[^'"]*…\)$/,
    );
    expect(h).toMatchObject({ uploaded: 0, fallbacks: [{ origin: 'traces', count: 1, reason }] });
    expect(puts()).toHaveLength(0);
    expect(diagnostics.map((entry) => [entry.level, entry.text.split('\n')[0]])).toEqual([
      [
        'error',
        expect.stringMatching(/^svc-run: a file upload failed unexpectedly: TypeError: [^'"]*undefined/),
      ],
    ]);
  });
});
