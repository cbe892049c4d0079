import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcApiError } from '../../errors/svc-api-error.js';
import { createEvalTransport, MAX_EVAL_RESPONSE_BYTES } from './eval-transport.js';

const KEY = 'svc_rw_transportTestKey000000000000000000000000';
const SECRET_BODY = 'secret-server-text-4f2a';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
let handler: Handler = (_req, res) => res.end('{}');
const received: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }> =
  [];
let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A transport to the stand-in; the longest timeout unless a test is about the timeout. */
function transport(timeoutMillis = 60_000) {
  return createEvalTransport({ apiKey: KEY, baseUrl: origin, timeoutMillis });
}

async function failure(promise: Promise<unknown>): Promise<SvcApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(SvcApiError.isInstance(error)).toBe(true);
  const apiError = error as SvcApiError;
  expect(apiError.message).not.toContain(KEY);
  expect(apiError.message).not.toContain(SECRET_BODY);
  return apiError;
}

describe('evaluation transport', () => {
  it('sends a mutation once, as JSON, with the key and its idempotency key', async () => {
    received.length = 0;
    handler = (_req, res) => res.end('{"id":"x"}');
    const answer = await transport()<{ id: string }>({
      operation: 'createDataset',
      method: 'POST',
      path: '/api/v1/evals/datasets',
      body: { name: 'A', skipped: undefined },
      idempotencyKey: 'key-1',
    });
    expect(answer).toEqual({ id: 'x' });
    expect(received).toHaveLength(1);
    expect(received[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(received[0]!.headers['idempotency-key']).toBe('key-1');
    expect(received[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(received[0]!.body)).toEqual({ name: 'A' });
  });

  it('never retries a mutation whose connection was reset, and says it may have been applied', async () => {
    received.length = 0;
    handler = (req) => req.socket.destroy();
    const error = await failure(
      transport()({ operation: 'addCase', method: 'POST', path: '/x', body: {}, idempotencyKey: 'k' }),
    );
    expect(error.status).toBeUndefined();
    expect(error.message).toContain('may or may not have been applied');
    expect(error.message).toContain('same idempotency key');
    expect(received).toHaveLength(1);
  });

  it('reports an HTTP error with its status and code, without the server body', async () => {
    handler = (_req, res) => {
      res.statusCode = 409;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ error: { code: 'stale_revision', message: SECRET_BODY } }));
    };
    const error = await failure(transport()({ operation: 'addCase', method: 'POST', path: '/x', body: {} }));
    expect(error.status).toBe(409);
    expect(error.code).toBe('stale_revision');
    expect(error.message).toContain('addCase');
  });

  it('ignores a code that is not a plain identifier', async () => {
    handler = (_req, res) => {
      res.statusCode = 400;
      res.end(JSON.stringify({ error: { code: `<b>${SECRET_BODY}</b>`, message: 'x' } }));
    };
    const error = await failure(transport()({ operation: 'getDataset', method: 'GET', path: '/x' }));
    expect(error.status).toBe(400);
    expect(error.code).toBeUndefined();
  });

  it('refuses an answer over 4 MiB, declared or streamed, telling the caller to request a smaller page', async () => {
    const big = JSON.stringify({ items: ['z'.repeat(MAX_EVAL_RESPONSE_BYTES)], nextCursor: null });
    for (const chunked of [false, true]) {
      handler = (_req, res) => {
        if (!chunked) res.setHeader('content-length', Buffer.byteLength(big));
        res.end(big);
      };
      const error = await failure(transport()({ operation: 'listCases', method: 'GET', path: '/x' }));
      expect(error.message).toContain('larger than 4 MiB');
      expect(error.message).toContain('limit 1');
      expect(error.message).toContain('nextCursor');
    }
  });

  it('refuses an answer that is not JSON', async () => {
    handler = (_req, res) => res.end(`<html>${SECRET_BODY}</html>`);
    const error = await failure(transport()({ operation: 'getDataset', method: 'GET', path: '/x' }));
    expect(error.status).toBe(200);
    expect(error.message).toContain('not the expected JSON');
  });

  it('does not follow a redirect', async () => {
    received.length = 0;
    handler = (_req, res) => {
      res.statusCode = 307;
      res.setHeader('location', '/elsewhere');
      res.end();
    };
    const error = await failure(transport()({ operation: 'getDataset', method: 'GET', path: '/x' }));
    expect(error.status).toBe(307);
    expect(received).toHaveLength(1);
  });

  it('times out without a status', async () => {
    handler = () => {}; // never answers
    const error = await failure(
      transport(200)({
        operation: 'freezeDatasetVersion',
        method: 'POST',
        path: '/x',
        body: {},
        idempotencyKey: 'k',
      }),
    );
    expect(error.status).toBeUndefined();
    expect(error.message).toContain('within 200 ms');
    expect(error.message).toContain('may or may not have been applied');
  });

  it('throws a TypeError for an input that is not JSON', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(
      transport()({ operation: 'addCase', method: 'POST', path: '/x', body: cyclic }),
    ).rejects.toThrow(/The input of addCase cannot be serialized as JSON/);
  });
});
