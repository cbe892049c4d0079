import { describe, expect, it } from 'vitest';
import { jsonSpan, newTraceId, tracesRequest } from '../test-support/otlp-fixtures.js';
import { useServer } from '../test-support/server-fixture.js';
import { KEY_PREFIXES, KEY_PRESETS, type KeyPreset, ROUTE_ACCESS, type RouteId } from './key-presets.js';

const fx = useServer();
const KEY_FIELD = { tracing: 'tracing', read: 'read', read_write: 'readWrite', setup: 'setup' } as const;

/** A request to each route that succeeds when the key is allowed. */
async function callRoute(
  route: RouteId,
  authorization: string | undefined,
  traceId: string,
): Promise<Response> {
  const access = ROUTE_ACCESS[route];
  const headers: Record<string, string> = {};
  if (authorization !== undefined) headers.authorization = authorization;
  if (access.method === 'POST') {
    headers['content-type'] = 'application/json';
    const body =
      route === 'otlp.logs' ? '{"resourceLogs":[]}' : JSON.stringify(tracesRequest([jsonSpan(traceId)]));
    return fx.server.app.request(access.path, { method: 'POST', headers, body });
  }
  const path = access.path.replace('{otelTraceId}', seededTrace);
  return fx.server.app.request(path, { headers });
}

let seededTrace = '';

describe('auth matrix: every route × every key preset', () => {
  const routes = Object.keys(ROUTE_ACCESS) as RouteId[];
  const matrix = routes.flatMap((route) =>
    KEY_PRESETS.map((preset) => [route, preset] as [RouteId, KeyPreset]),
  );

  it.each(matrix)('%s with a %s key answers as the table says', async (route, preset) => {
    seededTrace = newTraceId();
    await fx.postJson('/api/v1/otlp/v1/traces', tracesRequest([jsonSpan(seededTrace)]));
    const key = fx.server.keys[KEY_FIELD[preset]];
    expect(key.startsWith(KEY_PREFIXES[preset])).toBe(true);
    const traceId = newTraceId();
    const res = await callRoute(route, `Bearer ${key}`, traceId);
    const allowed = ROUTE_ACCESS[route].presets.includes(preset);
    if (allowed) {
      expect(res.status).toBe(200);
      if (route === 'otlp.traces') expect((await fx.receipt(traceId)).status).toBe(200);
    } else {
      expect(res.status).toBe(403);
      const body = await res.text();
      expect(JSON.parse(body)).toMatchObject({ error: { code: 'forbidden' } });
      expect(body).not.toContain(key);
      // A refused ingest stores nothing.
      if (route === 'otlp.traces') expect((await fx.receipt(traceId)).status).toBe(404);
    }
  });

  const unauthenticated: Array<[string, string | undefined]> = [
    ['no Authorization header', undefined],
    ['a wrong key', 'Bearer svc_tracing_thisIsNotAKeyOfTheProjectAtAll0000000000000'],
    ['an empty bearer', 'Bearer '],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
  ];
  const unauthMatrix = routes.flatMap((route) =>
    unauthenticated.map(([what, header]) => [route, what, header] as const),
  );

  it.each(unauthMatrix)(
    '%s with %s answers 401 without echoing the credential',
    async (route, _what, header) => {
      const traceId = newTraceId();
      const res = await callRoute(route, header, traceId);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      const body = await res.text();
      expect(JSON.parse(body)).toMatchObject({ error: { code: 'unauthorized' } });
      const credential = header?.split(' ')[1];
      if (credential) expect(body).not.toContain(credential);
      if (route === 'otlp.traces') expect((await fx.receipt(traceId)).status).toBe(404);
    },
  );

  it('accepts the scheme name in any case', async () => {
    const res = await fx.server.app.request('/api/v1/projects/current', {
      headers: { authorization: `bearer ${fx.server.keys.read}` },
    });
    expect(res.status).toBe(200);
  });

  it('keeps the spec rules: a Read key cannot ingest; only Read keys and Read-and-write keys read content', () => {
    expect(ROUTE_ACCESS['otlp.traces'].presets).not.toContain('read');
    expect(ROUTE_ACCESS['otlp.logs'].presets).not.toContain('read');
    expect(ROUTE_ACCESS['projects.current'].presets).toEqual(['tracing', 'read', 'read_write', 'setup']);
  });
});
