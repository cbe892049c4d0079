/**
 * One side of the upload benchmark, run as a child process by `media-upload.mjs`, so that its
 * resident memory is its own. On `{ type: 'run', side, origin, key, readKey, path, size }`:
 *
 * - `sdk`: `createSvc()` (the built `@svc-run/sdk`), then `span.recordFile({ path, upload: true })`
 *   inside `withSpan` (hashes the file with bounded memory) and `flush()`, which exports the span
 *   and waits for the upload (reserve → streamed PUT → complete);
 * - `bare`: the same three HTTP steps with undici alone (`fs.createReadStream` as the PUT body),
 *   after hashing the file the same streaming way: the floor of the upload path.
 *
 * Answers `{ type: 'result', hashMillis, uploadMillis, rssBefore, peakRss, uploaded }`, where the
 * peak is the highest of the resident set sampled every 5 ms and the process's `VmHWM`.
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { request } from 'undici';
// The built SDK (run `pnpm -r build` first; `pnpm bench` does).
import { createSvc } from '../packages/sdk/dist/index.js';

const now = () => performance.now();

/**
 * The resident-set high-water mark of this process image (Linux `VmHWM`), or 0 elsewhere. Unlike
 * `process.resourceUsage().maxRSS`, it starts again at exec: `maxRSS` keeps the parent's resident
 * set from the fork, which would count the benchmark runner's own memory as this client's.
 */
function highWaterMark() {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function memorySampler() {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  return () => {
    clearInterval(timer);
    return Math.max(peak, process.memoryUsage().rss, highWaterMark());
  };
}

async function hashFile(path) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) hash.update(chunk);
  return hash.digest('hex');
}

async function postJson(url, key, body) {
  const response = await request(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`${url}: HTTP ${response.statusCode}`);
  return JSON.parse(text);
}

async function bare({ origin, key, path, size }) {
  const traceId = randomBytes(16).toString('hex');
  const t0 = now();
  const sha256 = await hashFile(path);
  const t1 = now();
  const reservation = await postJson(`${origin}/api/v1/otlp/blobs`, key, {
    traceId,
    sha256,
    byteSize: size,
    contentType: 'application/octet-stream',
    key: `event:svc.file:${sha256}`,
  });
  if (reservation.status === 'upload') {
    const put = await request(reservation.url, {
      method: 'PUT',
      headers: reservation.headers,
      body: createReadStream(path, { highWaterMark: 1024 * 1024 }),
    });
    await put.body.dump();
    if (put.statusCode !== 201 && put.statusCode !== 412) throw new Error(`PUT: HTTP ${put.statusCode}`);
  }
  await postJson(`${origin}/api/v1/otlp/blobs/complete`, key, { traceId, sha256 });
  return { traceId, sha256, hashMillis: t1 - t0, uploadMillis: now() - t1, uploaded: 1 };
}

async function sdk({ origin, key, path }) {
  const svc = createSvc({ apiKey: key, baseUrl: origin, serviceName: 'bench-upload', captureContent: true });
  const t0 = now();
  let traceId = '';
  await svc.withSpan('upload-1gb', async (span) => {
    span.recordFile({
      role: 'input',
      path,
      mediaType: 'application/octet-stream',
      name: 'big.bin',
      upload: true,
    });
    traceId = span.traceId;
  });
  const t1 = now();
  const report = await svc.flush();
  const t2 = now();
  await svc.shutdown();
  return { traceId, hashMillis: t1 - t0, uploadMillis: t2 - t1, uploaded: report.uploadedValues };
}

process.on('message', async (message) => {
  if (message?.type !== 'run') return;
  try {
    const rssBefore = process.memoryUsage().rss;
    const stop = memorySampler();
    const result = await (message.side === 'sdk' ? sdk(message) : bare(message));
    const peakRss = stop();
    process.send({ type: 'result', ...result, rssBefore, peakRss });
  } catch (error) {
    process.send({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  }
  process.disconnect();
});
process.send({ type: 'ready' });
