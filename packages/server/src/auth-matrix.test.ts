import { describe, expect, it } from 'vitest';
import { KEY_PREFIXES, KEY_PRESETS, type KeyPreset } from './auth/key-presets.js';
import { ROUTE_ACCESS, type RouteId } from './route-table.js';
import { reservation, sha256Of, upload } from './test-support/media-fixtures.js';
import { jsonSpan, newSpanId, newTraceId, tracesRequest } from './test-support/otlp-fixtures.js';
import { useServer } from './test-support/server-fixture.js';

const fx = useServer();
const KEY_FIELD = {
  tracing: 'tracing',
  read: 'read',
  read_write: 'readWrite',
  setup: 'setup',
  machine: 'machine',
} as const;

/** A request to each route that succeeds when the key is allowed. */
async function callRoute(
  route: RouteId,
  authorization: string | undefined,
  traceId: string,
): Promise<Response> {
  const access = ROUTE_ACCESS[route];
  const headers: Record<string, string> = {};
  if (authorization !== undefined) headers.authorization = authorization;
  // Media routes: a reservation, or a file of the seeded trace.
  if (route === 'blobs.reserve' || route === 'blobs.complete') {
    headers['content-type'] = 'application/json';
    const body =
      route === 'blobs.reserve'
        ? reservation(traceId, seededFile)
        : { traceId: seededTrace, sha256: sha256Of(seededFile) };
    return fx.server.app.request(access.path, { method: 'POST', headers, body: JSON.stringify(body) });
  }
  if (route === 'traces.blob') {
    return fx.server.app.request(`/api/v1/traces/${seededTrace}/blobs/${sha256Of(seededFile)}`, { headers });
  }
  if (access.method === 'POST') {
    headers['content-type'] = 'application/json';
    const body =
      route === 'otlp.logs' ? '{"resourceLogs":[]}' : JSON.stringify(tracesRequest([jsonSpan(traceId)]));
    return fx.server.app.request(access.path, { method: 'POST', headers, body });
  }
  const path = access.path
    .replace('{otelTraceId}', seededTrace)
    .replace('{traceId}', seededTrace)
    .replace('{spanId}', seededSpan);
  return fx.server.app.request(path, { headers });
}

let seededTrace = '';
let seededSpan = '';
const seededFile = new TextEncoder().encode('a file of the seeded trace');

describe('auth matrix: every route × every key preset', () => {
  // Signed-link routes take no key (see the last test).
  const routes = (Object.keys(ROUTE_ACCESS) as RouteId[]).filter(
    (r) => ROUTE_ACCESS[r].auth !== 'signed-link',
  );
  const matrix = routes.flatMap((route) =>
    KEY_PRESETS.map((preset) => [route, preset] as [RouteId, KeyPreset]),
  );

  it.each(matrix)('%s with a %s key answers as the table says', async (route, preset) => {
    seededTrace = newTraceId();
    seededSpan = newSpanId();
    await fx.postJson(
      '/api/v1/otlp/v1/traces',
      tracesRequest([jsonSpan(seededTrace, { spanId: seededSpan })]),
    );
    await upload(fx.server, seededTrace, seededFile);
    const key = fx.server.keys[KEY_FIELD[preset]];
    expect(key.startsWith(KEY_PREFIXES[preset])).toBe(true);
    const traceId = newTraceId();
    const res = await callRoute(route, `Bearer ${key}`, traceId);
    const allowed = ROUTE_ACCESS[route].presets.includes(preset);
    if (allowed) {
      // Evaluation routes get a request their handler refuses (400/404): the guard let it through.
      if (route.startsWith('evals.')) expect([401, 403]).not.toContain(res.status);
      else expect(res.status).toBe(200);
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

  it('keeps keys out of the signed-link routes: with no key or any key, only the signature decides', async () => {
    const signed = (Object.keys(ROUTE_ACCESS) as RouteId[]).filter(
      (r) => ROUTE_ACCESS[r].auth === 'signed-link',
    );
    expect(signed.sort()).toEqual([
      'blobs.download',
      'blobs.upload',
      'evals.artifacts.upload',
      'evals.caseFiles.download',
    ]);
    for (const route of signed) {
      const access = ROUTE_ACCESS[route];
      expect(access.presets).toEqual([]);
      const path = access.path.replace(/\{\w+\}/, 'x');
      for (const key of [undefined, ...Object.values(fx.server.keys)]) {
        const headers: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` };
        const res = await fx.server.app.request(path, { method: access.method, headers });
        expect(res.status).toBe(403);
        expect(await res.json()).toMatchObject({ error: { code: 'forbidden' } });
      }
    }
  });

  it('keeps every project key out of the world routes, which take a trial token only', async () => {
    const worldRoutes = (Object.keys(ROUTE_ACCESS) as RouteId[]).filter(
      (r) => ROUTE_ACCESS[r].auth === 'trial-token',
    );
    expect(worldRoutes.sort()).toEqual(['worlds.tools.call', 'worlds.tools.list']);
    for (const route of worldRoutes) {
      const access = ROUTE_ACCESS[route];
      expect(access.presets).toEqual([]);
      const path = access.path
        .replace('{worldId}', '0b7c3c9e-8d2a-4f57-9a43-2f6d0c1e5b8a')
        .replace('{toolName}', 'x');
      for (const key of Object.values(fx.server.keys)) {
        const res = await fx.server.app.request(path, {
          method: access.method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          ...(access.method === 'POST' ? { body: '{}' } : {}),
        });
        expect(res.status).toBe(403);
        const body = await res.text();
        expect(JSON.parse(body)).toMatchObject({ error: { code: 'forbidden' } });
        expect(body).not.toContain(key);
      }
    }
  });

  it('keeps the machine credential to the managed-target routes, which take no other key', () => {
    const machineRoutes = (Object.keys(ROUTE_ACCESS) as RouteId[]).filter((r) =>
      ROUTE_ACCESS[r].presets.includes('machine'),
    );
    expect(machineRoutes.sort()).toEqual([
      'evals.executions.claim',
      'evals.executions.outcome',
      'evals.executions.outputFiles',
    ]);
    for (const route of machineRoutes) expect(ROUTE_ACCESS[route].presets).toEqual(['machine']);
    expect(fx.server.keys.machine.startsWith(KEY_PREFIXES.machine)).toBe(true);
  });

  it('lets only Read and Read-and-write keys read files; any key that may ingest may upload', () => {
    expect(ROUTE_ACCESS['traces.blob'].presets).toEqual(['read', 'read_write']);
    expect(ROUTE_ACCESS['blobs.reserve'].presets).toEqual(['tracing', 'read_write', 'setup']);
    expect(ROUTE_ACCESS['blobs.complete'].presets).toEqual(ROUTE_ACCESS['blobs.reserve'].presets);
  });
});
