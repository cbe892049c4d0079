/**
 * Memory admission, measured on a real server process (`server-child.ts`, the default body budget
 * of 128 MiB): many concurrent large and slow bodies keep its resident memory under the bound the
 * README documents ("Memory"), while normal requests are answered; bodies whose clients go away
 * midway are given back, so the resident memory returns to where it was. Clients: Node's
 * `http.request` (to send bodies slowly and abort them) and `fetch`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '@svc-run/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_BODY_BUDGET_BYTES } from '../http/body-budget.js';
import { newSpanId, newTraceId } from '../test-support/otlp-fixtures.js';
import { type ServerChild, spawnServerChild } from '../test-support/server-child-process.js';

const MiB = 1024 * 1024;
/** The README's bound (Limits, "Memory"): peak RSS over the idle server's, default budget, GenAI-sized spans. */
const DOCUMENTED_PEAK_GROWTH = 1024 * MiB;
/** What the allocator may keep of freed memory for reuse (the README's "Memory"). */
const ALLOCATOR_SLACK = 96 * MiB;

const dirs: string[] = [];
const children: ServerChild[] = [];
afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function startChild(): Promise<ServerChild> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-admission-'));
  dirs.push(dir);
  const child = await spawnServerChild(dir);
  children.push(child);
  return child;
}

/** An OTLP JSON export of GenAI-sized spans (about 2 KiB of attributes each), about `bytes` long. */
function genAiExport(bytes: number): Buffer {
  const traceId = newTraceId();
  const message = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'x'.repeat(1700) }] }]);
  const spans: string[] = [];
  for (let size = 0; size < bytes; ) {
    const span = JSON.stringify({
      traceId,
      spanId: newSpanId(),
      name: 'chat gpt-4o-mini',
      kind: 3,
      startTimeUnixNano: '1763740800000000000',
      endTimeUnixNano: '1763740801000000000',
      attributes: [
        { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
        { key: 'gen_ai.input.messages', value: { stringValue: message } },
      ],
    });
    spans.push(span);
    size += span.length + 1;
  }
  return Buffer.from(
    `{"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[{"scope":{"name":"memory"},"spans":[${spans.join(',')}]}]}]}`,
  );
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
}

/** A request whose body the test writes itself, part by part. */
function openRequest(
  child: ServerChild,
  method: string,
  url: string,
  headers: Record<string, string>,
): { req: ClientRequest; answer: Promise<Answer> } {
  const req = httpRequest(new URL(url, child.origin), { method, headers });
  // A refused body's connection may be closed by the server while this side still writes.
  req.on('error', () => undefined);
  const answer = new Promise<Answer>((resolve, reject) => {
    req.once('response', (res: IncomingMessage) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined });
    });
    req.once('close', () => reject(new Error(`${method} ${url}: no answer`)));
  });
  answer.catch(() => undefined);
  return { req, answer };
}

function exportRequest(child: ServerChild, declared: number) {
  return openRequest(child, 'POST', '/api/v1/otlp/v1/traces', {
    authorization: `Bearer ${child.keys.tracing}`,
    'content-type': 'application/json',
    'content-length': String(declared),
  });
}

function write(req: ClientRequest, bytes: Uint8Array): Promise<void> {
  return new Promise((resolve) => req.write(bytes, () => resolve()));
}

async function get(child: ServerChild, path: string, key: string): Promise<number> {
  const res = await fetch(`${child.origin}${path}`, { headers: { authorization: `Bearer ${key}` } });
  await res.arrayBuffer();
  return res.status;
}

async function smallExport(child: ServerChild): Promise<number> {
  const body = genAiExport(8 * 1024);
  const res = await fetch(`${child.origin}/api/v1/otlp/v1/traces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${child.keys.tracing}`, 'content-type': 'application/json' },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

/** Reserves `bytes` and opens their upload (the signed PUT), not yet written. */
async function openUpload(child: ServerChild, bytes: Buffer) {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const res = await fetch(`${child.origin}/api/v1/otlp/blobs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${child.keys.tracing}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      traceId: newTraceId(),
      sha256,
      byteSize: bytes.length,
      contentType: 'application/octet-stream',
      key: 'input.value#',
    }),
  });
  const ticket = (await res.json()) as { url: string; headers: Record<string, string> };
  return openRequest(child, 'PUT', ticket.url, ticket.headers);
}

describe('memory admission of request bodies', () => {
  it('keeps the server under its documented memory bound with many concurrent large, slow bodies, answering normal requests meanwhile', {
    timeout: 300_000,
  }, async () => {
    const child = await startChild();
    expect(await smallExport(child)).toBe(200);
    expect(await get(child, '/api/v1/projects/current', child.keys.read)).toBe(200);
    const idle = await child.rss();

    // Twelve exports of 45 MiB each, sent slowly: the first half, then a pause.
    const body = genAiExport(45 * MiB);
    const exports = Array.from({ length: 12 }, () => exportRequest(child, body.length));
    const half = Math.floor(body.length / 2);
    for (const { req } of exports) void write(req, body.subarray(0, half));
    // Four uploads of 32 MiB each, also sent slowly: they stream to disk, outside the budget.
    const files = Array.from({ length: 4 }, () => randomBytes(32 * MiB));
    const uploads = await Promise.all(files.map((bytes) => openUpload(child, bytes)));
    for (const [i, { req }] of uploads.entries()) void write(req, files[i]!.subarray(0, 16 * MiB));

    // Two bodies fit the budget and are held; the other ten are answered 503 with Retry-After.
    await waitUntil(
      async () => (await child.bodyBytes()) === 2 * body.length,
      'two exports to be admitted (their declared lengths charged)',
    );
    const answers: Array<Answer | undefined> = exports.map(() => undefined);
    for (const [i, sent] of exports.entries()) void sent.answer.then((answer) => (answers[i] = answer));
    await waitUntil(() => answers.filter(Boolean).length === 10, 'ten exports to be refused');
    const refused = answers.filter((answer) => answer !== undefined);
    const admitted = exports.filter((_, i) => answers[i] === undefined);
    expect(refused.every((a) => a.status === 503 && a.retryAfter === '1')).toBe(true);
    expect(admitted).toHaveLength(2);

    // Meanwhile, normal requests are answered: reads, and a small export within the room left.
    expect(await get(child, '/api/v1/projects/current', child.keys.read)).toBe(200);
    expect(await smallExport(child)).toBe(200);
    expect(await child.bodyBytes()).toBe(2 * body.length);

    for (const { req } of admitted) req.end(body.subarray(half));
    for (const [i, { req }] of uploads.entries()) req.end(files[i]!.subarray(16 * MiB));
    expect((await Promise.all(admitted.map((sent) => sent.answer))).map((a) => a.status)).toEqual([200, 200]);
    expect((await Promise.all(uploads.map((sent) => sent.answer))).map((a) => a.status)).toEqual([
      201, 201, 201, 201,
    ]);
    await waitUntil(async () => (await child.bodyBytes()) === 0, 'the budget to be given back');

    const growth = (await child.maxRss()) - idle;
    expect(growth, `peak RSS ${Math.round(growth / MiB)} MiB over idle`).toBeLessThan(DOCUMENTED_PEAK_GROWTH);
  });

  it('gives the bodies of aborted uploads back: resident memory returns to where it was', {
    timeout: 120_000,
  }, async () => {
    const child = await startChild();
    expect(await smallExport(child)).toBe(200);
    const before = await child.rss();
    for (let round = 0; round < 3; round++) {
      // Two exports declared 64 MiB (the whole budget), of which 60 MiB arrive before the clients go away.
      const sent = [exportRequest(child, 64 * MiB), exportRequest(child, 64 * MiB)];
      await Promise.all(sent.map(({ req }) => write(req, Buffer.alloc(60 * MiB, 0x20))));
      expect(await child.bodyBytes()).toBe(DEFAULT_BODY_BUDGET_BYTES);
      await waitUntil(
        async () => (await child.rss()) - before > 100 * MiB,
        'the server to hold the bytes sent (its RSS up by 100 MiB)',
      );
      for (const { req } of sent) req.destroy();
      await waitUntil(async () => (await child.bodyBytes()) === 0, 'the aborted bodies to be given back');
      // The freed buffers go back to the system once collected (an idle server may never collect
      // on its own) and the allocator gets to them: collect, and wait for it. Bytes still held
      // (referenced) survive any collection, make this wait give up, and the test fail.
      await waitUntil(
        async () => {
          await child.collectGarbage();
          return (await child.rss()) - before < ALLOCATOR_SLACK;
        },
        `round ${round}: the resident memory to return within ${ALLOCATOR_SLACK / MiB} MiB of before`,
        50,
      );
    }
  });
});
