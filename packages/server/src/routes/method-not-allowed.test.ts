import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { ApiErrorBody } from '../http/api-error.js';
import { useServer } from '../test-support/server-fixture.js';

// Issue 13 item 6: a method a known path does not serve is 405 with `Allow` (RFC 9110), not 404
// (Schemathesis sent TRACE to every path of the OpenAPI document and got 404).
const fx = useServer();

const ID = '0b7c3c9e-8d2a-4f57-9a43-2f6d0c1e5b8a';

/**
 * Sends `method` over HTTP to the real port with node:http (the Fetch API refuses to send TRACE).
 */
function send(
  method: string,
  path: string,
  key?: string,
): Promise<{ status: number; allow: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${fx.server.origin}${path}`, {
      method,
      headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          allow: res.headers.allow,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.end();
  });
}

describe('methods a known path does not serve', () => {
  it.each([
    ['TRACE', '/api/v1/projects/current', 'GET, HEAD'],
    ['DELETE', '/api/v1/otlp/v1/traces', 'POST'],
    ['PATCH', '/api/v1/otlp/blobs', 'POST'],
    ['PUT', '/api/v1/openapi.json', 'GET, HEAD'],
    ['OPTIONS', '/api/v1/evals/datasets', 'GET, HEAD, POST'],
    ['TRACE', `/api/v1/evals/datasets/${ID}`, 'GET, HEAD'],
    ['TRACE', '/api/v1/evals/datasets/not-a-uuid', 'GET, HEAD'], // the path's shape, not the ID, decides
    ['DELETE', `/api/v1/evals/runs/${ID}/results`, 'GET, HEAD, POST'],
    ['GET', `/api/v1/blobs/uploads/${ID}`, 'PUT'],
    ['HEAD', '/api/v1/otlp/v1/logs', 'POST'],
    ['POST', `/api/v1/traces/${'a'.repeat(32)}/receipt`, 'GET, HEAD'],
  ])('%s %s → 405, Allow: %s', async (method, path, allow) => {
    for (const key of [fx.server.keys.readWrite, undefined]) {
      const res = await send(method, path, key);
      expect(res.status).toBe(405);
      expect(res.allow).toBe(allow);
      if (method !== 'HEAD') {
        const body = JSON.parse(res.text) as ApiErrorBody;
        expect(body.error.code).toBe('method_not_allowed');
        expect(body.error.message).toBe(`This path does not serve ${method}; it serves ${allow}.`);
      }
    }
  });

  it('answers a path no route has with 404', async () => {
    for (const method of ['GET', 'TRACE', 'POST']) {
      const res = await send(method, '/api/v1/nothing-here', fx.server.keys.readWrite);
      expect(res.status, method).toBe(404);
      expect(res.allow).toBeUndefined();
    }
  });

  it('still serves the methods a path has (HEAD with GET)', async () => {
    const key = fx.server.keys.tracing;
    expect((await send('GET', '/api/v1/projects/current', key)).status).toBe(200);
    expect((await send('HEAD', '/api/v1/projects/current', key)).status).toBe(200);
    expect((await send('HEAD', '/api/v1/projects/current')).status).toBe(401);
  });
});
