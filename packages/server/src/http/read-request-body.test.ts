import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type HttpBindings, serve } from '@hono/node-server';
import { waitUntil } from '@svc-run/test-support';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, errorResponse } from './api-error.js';
import { admitBodies, type BodyAccount, bodyAccountOf } from './body-admission.js';
import { BodyBudget } from './body-budget.js';
import { BodyTooLargeError, readRequestBody } from './read-request-body.js';

const LIMIT = 1024;
let server: Server;
let port: number;
const seen: Array<{ length?: number; ownsBuffer?: boolean; error?: string }> = [];

beforeAll(async () => {
  server = createServer((incoming: IncomingMessage, response) => {
    readRequestBody(new Request('http://x/'), incoming, LIMIT).then(
      (body) => {
        seen.push({
          length: body.length,
          ownsBuffer: body.byteOffset === 0 && body.buffer.byteLength === body.length,
        });
        response.end(body);
      },
      (error: Error) => {
        seen.push({ error: error.name });
        response.statusCode = 413;
        response.end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends `parts` as the body; with `declared`, a Content-Length header, else chunked encoding. */
function send(parts: Buffer[], declared?: number): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> =
      declared === undefined ? {} : { 'content-length': String(declared) };
    const req = httpRequest({ port, host: '127.0.0.1', method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    for (const part of parts) req.write(part);
    req.end();
  });
}

describe('readRequestBody over real HTTP', () => {
  it('reads a body of declared length, in several chunks, into one buffer it owns', async () => {
    const parts = [Buffer.alloc(300, 1), Buffer.alloc(300, 2), Buffer.alloc(100, 3)];
    const res = await send(parts, 700);
    expect(res.status).toBe(200);
    expect(res.body.equals(Buffer.concat(parts))).toBe(true);
    expect(seen.at(-1)).toEqual({ length: 700, ownsBuffer: true });
  });

  it('reads a chunked body without a declared length', async () => {
    const res = await send([Buffer.from('abc'), Buffer.from('def')]);
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('abcdef');
  });

  it('refuses a declared length over the limit without reading', async () => {
    const res = await send([Buffer.alloc(LIMIT + 1)], LIMIT + 1);
    expect(res.status).toBe(413);
    expect(seen.at(-1)).toEqual({ error: 'BodyTooLargeError' });
  });

  it('refuses a chunked body that grows past the limit', async () => {
    const res = await send([Buffer.alloc(LIMIT), Buffer.alloc(10)]);
    expect(res.status).toBe(413);
    expect(seen.at(-1)).toEqual({ error: 'BodyTooLargeError' });
  });

  it('reads from the Fetch request when there is no Node message', async () => {
    const body = await readRequestBody(
      new Request('http://x/', { method: 'POST', body: 'hello' }),
      undefined,
      LIMIT,
    );
    expect(body.toString()).toBe('hello');
    await expect(
      readRequestBody(
        new Request('http://x/', { method: 'POST', body: 'x'.repeat(LIMIT + 1) }),
        undefined,
        LIMIT,
      ),
    ).rejects.toBeInstanceOf(BodyTooLargeError);
  });
});

describe('readRequestBody behind body admission (a Hono app over real HTTP)', () => {
  const MiB = 1024 * 1024;
  const BUDGET = 80 * MiB;
  const budget = new BodyBudget(BUDGET);
  let hono: Server;
  let honoPort: number;
  const accounts: BodyAccount[] = [];
  const outcomes: Array<{ length?: number; error?: string; budgetUsed: number }> = [];

  beforeAll(async () => {
    const app = new Hono<{ Bindings: HttpBindings }>();
    app.use('*', admitBodies(budget));
    app.post('/', async (c) => {
      accounts.push(bodyAccountOf(c.req.raw, c.env.incoming)!);
      try {
        const body = await readRequestBody(c.req.raw, c.env.incoming, 128 * MiB);
        outcomes.push({ length: body.length, budgetUsed: budget.used });
        return c.json({ length: body.length });
      } catch (error) {
        outcomes.push({ error: (error as Error).name, budgetUsed: budget.used });
        if (error instanceof ApiError) return errorResponse(error);
        return c.json({ error: (error as Error).name }, 413);
      }
    });
    hono = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise<void>((resolve) => hono.once('listening', resolve));
    honoPort = (hono.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => hono.close(() => resolve())));

  /** Starts a POST declaring `declared` bytes (chunked when undefined); the caller writes the body. */
  function open(declared?: number) {
    const headers: Record<string, string> =
      declared === undefined ? {} : { 'content-length': String(declared) };
    const req = httpRequest({ port: honoPort, host: '127.0.0.1', method: 'POST', headers });
    const answer = new Promise<{ status: number; retryAfter?: string; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ...(res.headers['retry-after'] ? { retryAfter: String(res.headers['retry-after']) } : {}),
            body: Buffer.concat(chunks).toString(),
          }),
        );
      });
      req.on('error', reject);
    });
    return { req, answer };
  }

  it('allocates as bytes arrive: a body declared 64 MiB of which 10 bytes came holds no 64 MiB buffer', async () => {
    const before = process.memoryUsage().arrayBuffers;
    const { req, answer } = open(64 * MiB - 1);
    answer.catch(() => undefined); // the request is aborted below
    req.write(Buffer.alloc(10, 1));
    const account = await waitUntil(
      () => accounts.length > 0 && accounts.at(-1)!.received >= 10 && accounts.at(-1),
      'the server to receive the first 10 bytes',
    );
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(2 * MiB);
    // The declared length is charged: an admitted body is never refused halfway for lack of memory.
    expect(account.charged).toBe(64 * MiB - 1);
    req.destroy();
    await waitUntil(() => outcomes.length === accounts.length, 'the aborted read to settle');
    expect(outcomes.at(-1)).toEqual({ error: 'RequestAbortedError', budgetUsed: 0 });
  });

  it('gives an aborted body back at once: its budget, and its memory without waiting for a garbage collection', async () => {
    const { req, answer } = open(6 * MiB);
    answer.catch(() => undefined);
    req.write(Buffer.alloc(5 * MiB, 2));
    await waitUntil(
      () => accounts.at(-1)!.received >= 5 * MiB && outcomes.length < accounts.length,
      '5 MiB read',
    );
    const holding = process.memoryUsage().arrayBuffers;
    req.destroy();
    await waitUntil(() => outcomes.length === accounts.length, 'the aborted read to settle');
    expect(outcomes.at(-1)).toEqual({ error: 'RequestAbortedError', budgetUsed: 0 });
    // The reader's buffer (at least the 5 MiB gathered) is detached, not garbage waiting for the GC.
    expect(holding - process.memoryUsage().arrayBuffers).toBeGreaterThanOrEqual(5 * MiB);
  });

  it('refuses a declared body larger than the room left with 503 and Retry-After, before reading it; others go on', async () => {
    const held = open(78 * MiB);
    held.req.write(Buffer.alloc(MiB));
    await waitUntil(() => budget.used === 78 * MiB, 'the first body to be admitted');
    const refused = open(4 * MiB);
    refused.req.end(Buffer.alloc(4 * MiB));
    expect(await refused.answer).toMatchObject({ status: 503, retryAfter: '1' });
    expect(JSON.parse((await refused.answer).body)).toMatchObject({ error: { code: 'unavailable' } });
    // A body that fits the room is still taken beside the held one.
    const small = open(MiB);
    small.req.end(Buffer.alloc(MiB));
    expect(await small.answer).toMatchObject({ status: 200, body: JSON.stringify({ length: MiB }) });
    held.req.end(Buffer.alloc(77 * MiB));
    expect((await held.answer).status).toBe(200);
    expect(outcomes.at(-1)).toEqual({ length: 78 * MiB, budgetUsed: 78 * MiB });
    await waitUntil(() => budget.used === 0, 'the budget to be given back once answered');
  });

  it('charges a body without a declared length as it grows, and refuses it with 503 once over the budget', async () => {
    const { req, answer } = open();
    req.on('error', () => undefined); // the server may close the connection while this side writes
    for (let i = 0; i < 90 && !req.destroyed; i++) req.write(Buffer.alloc(MiB));
    req.end();
    expect(await answer).toMatchObject({ status: 503, retryAfter: '1' });
    await waitUntil(() => budget.used === 0, 'the budget to be given back');
  });
});
