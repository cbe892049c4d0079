import { waitUntil } from '@svc-run/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../start-server.js';
import { jsonSpan, newTraceId, tracesRequest } from '../test-support/otlp-fixtures.js';

let server: RunningServer;
let plain: RunningServer;
beforeAll(async () => {
  [server, plain] = await Promise.all([startServer({ faultInjection: true }), startServer()]);
});
afterAll(async () => {
  await Promise.all([server.close(), plain.close()]);
});

function project(s: RunningServer, init: RequestInit = {}): Promise<Response> {
  return fetch(`${s.origin}/api/v1/projects/current`, {
    ...init,
    headers: { authorization: `Bearer ${s.keys.tracing}` },
  });
}

describe('fault injection', () => {
  it('answers the next N requests of a route with 429 and Retry-After, then serves normally', async () => {
    server.faults!.inject('projects.current', { kind: 'status', status: 429, retryAfterSeconds: 7 }, 2);
    for (let i = 0; i < 2; i++) {
      const res = await project(server);
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('7');
      expect(await res.json()).toMatchObject({ error: { code: 'rate_limited' } });
    }
    expect((await project(server)).status).toBe(200);
  });

  it('affects only the chosen route and stores nothing from a faulted ingest', async () => {
    server.faults!.inject('otlp.traces', { kind: 'status', status: 503 });
    expect((await project(server)).status).toBe(200);
    const traceId = newTraceId();
    const res = await fetch(`${server.origin}/api/v1/otlp/v1/traces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.keys.tracing}`, 'content-type': 'application/json' },
      body: JSON.stringify(tracesRequest([jsonSpan(traceId)])),
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(server.faults!.pending('otlp.traces')).toBe(0);
    expect(server.traceStore.getTraceSummary(traceId)).toBeUndefined();
  });

  it('holds a request until the test releases it: a client that gives up gets no answer', async () => {
    server.faults!.inject('projects.current', { kind: 'hang' });
    const abort = new AbortController();
    const answer = project(server, { signal: abort.signal });
    await waitUntil(() => server.faults!.held('projects.current') === 1);
    abort.abort();
    await expect(answer).rejects.toThrow(/abort/i);
    // The abandoned request is still held (nothing answered it); releasing lets it end.
    expect(server.faults!.held('projects.current')).toBe(1);
    expect(server.faults!.release('projects.current')).toBe(1);
    expect(server.faults!.held('projects.current')).toBe(0);
    expect((await project(server)).status).toBe(200);
  });

  it('answers a held request normally once released', async () => {
    server.faults!.inject('projects.current', { kind: 'hang' });
    const seen = server.faults!.seen('projects.current');
    const answer = project(server);
    await waitUntil(() => server.faults!.held('projects.current') === 1);
    expect(server.faults!.seen('projects.current')).toBe(seen + 1);
    server.faults!.release();
    expect((await answer).status).toBe(200);
  });

  it('releases held requests on clear and on close', async () => {
    const other = await startServer({ faultInjection: true });
    other.faults!.inject('projects.current', { kind: 'hang' }, 2);
    const first = project(other);
    await waitUntil(() => other.faults!.held('projects.current') === 1);
    other.faults!.clear('projects.current');
    expect((await first).status).toBe(200);
    other.faults!.inject('projects.current', { kind: 'hang' });
    const second = project(other);
    await waitUntil(() => other.faults!.held('projects.current') === 1);
    await other.close();
    expect((await second).status).toBe(200);
  });

  it('holds a request for a given time, then serves it', async () => {
    server.faults!.inject('projects.current', { kind: 'hang', millis: 50 });
    expect((await project(server)).status).toBe(200);
    expect(server.faults!.pending('projects.current')).toBe(0);
  });

  it('counts the requests each route has seen', async () => {
    const before = server.faults!.seen('projects.current');
    await project(server);
    await project(server);
    expect(server.faults!.seen('projects.current')).toBe(before + 2);
  });

  it('resets the connection without an answer', async () => {
    server.faults!.inject('projects.current', { kind: 'reset' });
    const error = await project(server).then(
      () => undefined,
      (e: unknown) => e as Error & { cause?: { code?: string } },
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(String(error?.cause?.code ?? error?.cause)).toMatch(/ECONNRESET|UND_ERR_SOCKET|other side closed/);
    expect((await project(server)).status).toBe(200);
  });

  it('clears queued faults', async () => {
    server.faults!.inject('projects.current', { kind: 'status', status: 503 }, 3);
    server.faults!.clear();
    expect((await project(server)).status).toBe(200);
  });

  it('does not exist on a normally started server', () => {
    expect(plain.faults).toBeUndefined();
  });

  it('validates the repeat count', () => {
    expect(() => server.faults!.inject('openapi', { kind: 'reset' }, 0)).toThrow(
      'times must be a positive integer; got 0',
    );
  });
});
