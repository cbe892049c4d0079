import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
