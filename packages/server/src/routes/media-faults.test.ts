import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaRouteId } from '../media/media-route-access.js';
import { type RunningServer, startServer } from '../start-server.js';
import { call, downloadLink, reserve, sha256Of, upload } from '../test-support/media-fixtures.js';
import { newTraceId } from '../test-support/otlp-fixtures.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ faultInjection: true });
});
afterAll(async () => {
  await server.close();
});

describe('fault injection on the media routes', () => {
  it('answers the next request of each media route with the injected status, then serves it normally', async () => {
    const traceId = newTraceId();
    const bytes = randomBytes(32);
    const sha256 = sha256Of(bytes);
    await upload(server, traceId, bytes);
    const link = (await (await downloadLink(server, traceId, sha256)).json()) as { url: string };
    const other = randomBytes(16);
    const ticket = await reserve(server, traceId, other);
    const requests: Record<MediaRouteId, () => Promise<Response>> = {
      'blobs.reserve': () =>
        call(server, '/api/v1/otlp/blobs', {
          method: 'POST',
          key: server.keys.tracing,
          json: { traceId, sha256, byteSize: 32, contentType: 'image/png', key: 'k#' },
        }),
      'blobs.upload': () => fetch(ticket.url, { method: 'PUT', headers: ticket.headers, body: other }),
      'blobs.complete': () =>
        call(server, '/api/v1/otlp/blobs/complete', {
          method: 'POST',
          key: server.keys.tracing,
          json: { traceId, sha256 },
        }),
      'traces.blob': () => downloadLink(server, traceId, sha256),
      'blobs.download': () => fetch(link.url),
    };
    for (const [route, request] of Object.entries(requests) as [MediaRouteId, () => Promise<Response>][]) {
      server.faults!.inject(route, { kind: 'status', status: 503, retryAfterSeconds: 3 });
      const faulted = await request();
      expect(faulted.status, route).toBe(503);
      expect(faulted.headers.get('retry-after')).toBe('3');
      expect(await faulted.json()).toMatchObject({ error: { code: 'unavailable' } });
      server.faults!.inject(route, { kind: 'status', status: 429 });
      expect((await request()).status, route).toBe(429);
      const served = await request();
      expect([200, 201], route).toContain(served.status);
      await served.arrayBuffer();
    }
  });

  it('resets the connection of an upload; the reservation still takes the bytes afterwards', async () => {
    const traceId = newTraceId();
    const bytes = randomBytes(1024);
    const ticket = await reserve(server, traceId, bytes);
    server.faults!.inject('blobs.upload', { kind: 'reset' });
    await expect(
      fetch(ticket.url, { method: 'PUT', headers: ticket.headers, body: bytes }),
    ).rejects.toThrow();
    const res = await fetch(ticket.url, { method: 'PUT', headers: ticket.headers, body: bytes });
    expect(res.status).toBe(201);
    expect((await server.files.holding(traceId, sha256Of(bytes)))?.readable).toBe(true);
  });
});
