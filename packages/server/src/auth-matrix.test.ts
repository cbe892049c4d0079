import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_PREFIXES, KEY_PRESETS, type KeyPreset } from './auth/key-presets.js';
import { ROUTE_ACCESS, type RouteId } from './route-table.js';
import { type EvalRouteCall, evalRouteCalls, managedTargetStandIn } from './test-support/eval-route-calls.js';
import { reservation, sha256Of, upload } from './test-support/media-fixtures.js';
import { jsonSpan, newSpanId, newTraceId, tracesRequest } from './test-support/otlp-fixtures.js';
import { scenarioRouteCalls } from './test-support/scenario-route-calls.js';
import { useServer } from './test-support/server-fixture.js';

// Judge jobs stay running until cancelled (their model answers only an abort); managed targets on
// 127.0.0.1 are allowed, for the stand-in the dispatches deliver to.
const judgeModel = new MockLanguageModelV4({
  provider: 'mock',
  modelId: 'judge-1',
  doGenerate: (options) =>
    new Promise((_resolve, reject) => {
      options.abortSignal?.addEventListener('abort', () => reject(options.abortSignal?.reason));
    }),
});
const fx = useServer({ allowPrivateTargets: true, judgeModel, judgeJobLimit: 1_000 });
let target: Awaited<ReturnType<typeof managedTargetStandIn>>;
beforeAll(async () => {
  target = await managedTargetStandIn();
});
afterAll(async () => {
  await target.close();
});
const evalCalls: Partial<Record<string, (key: string) => Promise<EvalRouteCall>>> = {
  ...evalRouteCalls(fx, () => target.url),
  ...scenarioRouteCalls(fx),
};

const KEY_FIELD = {
  tracing: 'tracing',
  read: 'read',
  read_write: 'readWrite',
  setup: 'setup',
  machine: 'machine',
} as const;

/*
 * The spec's key rules ("Authentication", rule 2's table of presets, rules 3, 4 and 6), written out
 * here rather than read from the route table under test. Where the spec is silent, the decision is
 * the one DESIGN.md and the server README state, and is marked so.
 */
/** Tracing only: "trace/log ingestion, blob reservation, receipts, project check". */
const TRACING: KeyPreset = 'tracing';
/** Read: "reading recorded content and files (download route, media fetch)". */
const READ: KeyPreset = 'read';
/** Read and write: "evaluation workflows, registry writes (`project_write`), reading snapshot copies of files". */
const READ_WRITE: KeyPreset = 'read_write';
/** A setup credential (`svc_setup_`, rule 3): decision — it may check the project, ingest and read receipts, so a new integration can prove it works. */
const SETUP: KeyPreset = 'setup';
/** The managed targets' machine credential: decision — only claim, output files and outcome. */
const MACHINE: KeyPreset = 'machine';

/** Which presets each kind of route allows, by the rules above. */
const SPEC_RULES = {
  // Ingestion and blob reservation: Tracing; never Read (rule 4); Read and write too, because the
  // local evaluation runners trace the cases they run (decision); the setup credential (decision).
  ingest: [TRACING, READ_WRITE, SETUP],
  // The project check and receipts: Tracing; any project key but the machine credential (decision).
  projectCheck: [TRACING, READ, READ_WRITE, SETUP],
  // Recorded content and files: Read (rule 2) and Read and write; every other key 403 (rule 4); the
  // tracing key gives no trace browsing (rule 6).
  content: [READ, READ_WRITE],
  // Registry writes and evaluation workflows: `project_write`, Read and write only.
  registryWrite: [READ_WRITE],
  // Registry reads: Read or Read and write (decision: reading the registry reads recorded inputs).
  registryRead: [READ, READ_WRITE],
  // Snapshot copies of recorded content and their files: Read and write only (rule 2).
  snapshots: [READ_WRITE],
  // Managed targets' side of an execution: the machine credential only (decision).
  machine: [MACHINE],
} as const satisfies Record<string, readonly KeyPreset[]>;
type Rule = keyof typeof SPEC_RULES;

/** Every key-authenticated route (method, path) and the rule that says who may call it. */
const ROUTES: Record<string, readonly [method: string, path: string, rule: Rule]> = {
  'projects.current': ['GET', '/api/v1/projects/current', 'projectCheck'],
  openapi: ['GET', '/api/v1/openapi.json', 'projectCheck'],
  'otlp.traces': ['POST', '/api/v1/otlp/v1/traces', 'ingest'],
  'otlp.logs': ['POST', '/api/v1/otlp/v1/logs', 'ingest'],
  'traces.receipt': ['GET', '/api/v1/traces/{otelTraceId}/receipt', 'projectCheck'],
  'blobs.reserve': ['POST', '/api/v1/otlp/blobs', 'ingest'],
  'blobs.complete': ['POST', '/api/v1/otlp/blobs/complete', 'ingest'],
  'traces.blob': ['GET', '/api/v1/traces/{traceId}/blobs/{sha256}', 'content'],
  'traces.search': ['GET', '/api/v1/traces', 'content'],
  'traces.outline': ['GET', '/api/v1/traces/{traceId}', 'content'],
  'traces.span': ['GET', '/api/v1/traces/{traceId}/spans/{spanId}', 'content'],
  'evals.datasets.create': ['POST', '/api/v1/evals/datasets', 'registryWrite'],
  'evals.datasets.list': ['GET', '/api/v1/evals/datasets', 'registryRead'],
  'evals.datasets.get': ['GET', '/api/v1/evals/datasets/{datasetId}', 'registryRead'],
  'evals.datasetVersions.create': ['POST', '/api/v1/evals/datasets/{datasetId}/versions', 'registryWrite'],
  'evals.datasetVersions.list': ['GET', '/api/v1/evals/datasets/{datasetId}/versions', 'registryRead'],
  'evals.datasetVersions.get': ['GET', '/api/v1/evals/dataset-versions/{versionId}', 'registryRead'],
  'evals.datasetVersions.freeze': [
    'POST',
    '/api/v1/evals/dataset-versions/{versionId}/freeze',
    'registryWrite',
  ],
  'evals.cases.list': ['GET', '/api/v1/evals/dataset-versions/{versionId}/cases', 'registryRead'],
  'evals.cases.add': ['POST', '/api/v1/evals/dataset-versions/{versionId}/cases', 'registryWrite'],
  'evals.cases.addEvalSet': [
    'POST',
    '/api/v1/evals/dataset-versions/{versionId}/eval-set-cases',
    'registryWrite',
  ],
  'evals.artifacts.create': ['POST', '/api/v1/evals/artifacts', 'registryWrite'],
  'evals.caseFiles.link': ['GET', '/api/v1/evals/cases/{caseId}/files/{sha256}', 'registryRead'],
  'evals.scorers.create': ['POST', '/api/v1/evals/scorers', 'registryWrite'],
  'evals.scorers.list': ['GET', '/api/v1/evals/scorers', 'registryRead'],
  'evals.scorers.get': ['GET', '/api/v1/evals/scorers/{scorerId}', 'registryRead'],
  'evals.scorerVersions.publish': ['POST', '/api/v1/evals/scorers/{scorerId}/versions', 'registryWrite'],
  'evals.scorerVersions.get': ['GET', '/api/v1/evals/scorer-versions/{versionId}', 'registryRead'],
  'evals.experiments.create': ['POST', '/api/v1/evals/experiments', 'registryWrite'],
  'evals.experiments.get': ['GET', '/api/v1/evals/experiments/{experimentId}', 'registryRead'],
  'evals.experiments.items': ['GET', '/api/v1/evals/experiments/{experimentId}/items', 'registryRead'],
  'evals.experiments.case': [
    'GET',
    '/api/v1/evals/experiments/{experimentId}/cases/{caseId}',
    'registryRead',
  ],
  'evals.experiments.finish': ['POST', '/api/v1/evals/experiments/{experimentId}/finish', 'registryWrite'],
  'evals.executions.start': [
    'POST',
    '/api/v1/evals/experiments/{experimentId}/cases/{caseId}/executions',
    'registryWrite',
  ],
  'evals.executions.get': ['GET', '/api/v1/evals/executions/{executionId}', 'registryRead'],
  'evals.executions.complete': ['POST', '/api/v1/evals/executions/{executionId}/complete', 'registryWrite'],
  'evals.traceSnapshots.get': ['GET', '/api/v1/evals/trace-snapshots/{snapshotId}', 'snapshots'],
  'evals.traceSnapshots.blob': [
    'GET',
    '/api/v1/evals/trace-snapshots/{snapshotId}/blobs/{sha256}',
    'snapshots',
  ],
  'evals.runs.create': ['POST', '/api/v1/evals/runs', 'registryWrite'],
  'evals.runs.get': ['GET', '/api/v1/evals/runs/{runId}', 'registryRead'],
  'evals.runs.items': ['GET', '/api/v1/evals/runs/{runId}/items', 'registryRead'],
  'evals.subjects.get': ['GET', '/api/v1/evals/subjects/{subjectId}', 'registryRead'],
  'evals.results.submit': ['POST', '/api/v1/evals/runs/{runId}/results', 'registryWrite'],
  'evals.results.list': ['GET', '/api/v1/evals/runs/{runId}/results', 'registryRead'],
  'evals.results.get': ['GET', '/api/v1/evals/results/{resultId}', 'registryRead'],
  'evals.judge.budget': ['GET', '/api/v1/evals/judge/budget', 'registryRead'],
  'evals.judgeJobs.create': ['POST', '/api/v1/evals/runs/{runId}/judge-jobs', 'registryWrite'],
  'evals.judgeJobs.list': ['GET', '/api/v1/evals/runs/{runId}/judge-jobs', 'registryRead'],
  'evals.judgeJobs.get': ['GET', '/api/v1/evals/judge-jobs/{jobId}', 'registryRead'],
  'evals.judgeJobs.cancel': ['POST', '/api/v1/evals/judge-jobs/{jobId}/cancel', 'registryWrite'],
  'evals.managedTargets.create': ['POST', '/api/v1/evals/managed-targets', 'registryWrite'],
  'evals.managedTargets.get': ['GET', '/api/v1/evals/managed-targets/{targetId}', 'registryRead'],
  'evals.executions.dispatch': [
    'POST',
    '/api/v1/evals/experiments/{experimentId}/cases/{caseId}/dispatch',
    'registryWrite',
  ],
  'evals.dispatches.get': ['GET', '/api/v1/evals/dispatches/{dispatchId}', 'registryRead'],
  'evals.executions.claim': ['POST', '/api/v1/evals/executions/{executionId}/claim', 'machine'],
  'evals.executions.outputFiles': ['POST', '/api/v1/evals/executions/{executionId}/output-files', 'machine'],
  'evals.executions.outcome': ['POST', '/api/v1/evals/executions/{executionId}/outcome', 'machine'],
  'evals.executions.managed': ['GET', '/api/v1/evals/executions/{executionId}/managed', 'registryRead'],
  // Scenarios are registry objects: publishing, runs, trials and seals are registry writes; reading
  // them is a registry read. A worker (register, poll, stop, its launches) writes: it runs with a
  // Read-and-write key (decision, server README "Scenarios").
  'evals.scenarios.publish': ['POST', '/api/v1/evals/scenarios', 'registryWrite'],
  'evals.scenarios.list': ['GET', '/api/v1/evals/scenarios', 'registryRead'],
  'evals.scenarios.get': ['GET', '/api/v1/evals/scenarios/{scenarioId}', 'registryRead'],
  'evals.scenarios.versions': ['GET', '/api/v1/evals/scenarios/{scenarioId}/versions', 'registryRead'],
  'evals.scenarios.runs': ['GET', '/api/v1/evals/scenarios/{scenarioId}/runs', 'registryRead'],
  'evals.scenarioVersions.get': ['GET', '/api/v1/evals/scenario-versions/{versionId}', 'registryRead'],
  'evals.scenarioRuns.create': ['POST', '/api/v1/evals/scenario-runs', 'registryWrite'],
  'evals.scenarioRuns.get': ['GET', '/api/v1/evals/scenario-runs/{runId}', 'registryRead'],
  'evals.trials.start': ['POST', '/api/v1/evals/scenario-runs/{runId}/trials', 'registryWrite'],
  'evals.trials.get': ['GET', '/api/v1/evals/trials/{trialId}', 'registryRead'],
  'evals.trials.toolCalls': ['GET', '/api/v1/evals/trials/{trialId}/tool-calls', 'registryRead'],
  'evals.trials.seal': ['POST', '/api/v1/evals/trials/{trialId}/seal', 'registryWrite'],
  'evals.localAgents.register': ['POST', '/api/v1/evals/local-agents', 'registryWrite'],
  'evals.localAgents.list': ['GET', '/api/v1/evals/local-agents', 'registryRead'],
  'evals.localAgents.poll': ['POST', '/api/v1/evals/local-agents/{agentId}/poll', 'registryWrite'],
  'evals.localAgents.stop': ['POST', '/api/v1/evals/local-agents/{agentId}/stop', 'registryWrite'],
  'evals.launches.create': ['POST', '/api/v1/evals/launches', 'registryWrite'],
  'evals.launches.get': ['GET', '/api/v1/evals/launches/{launchId}', 'registryRead'],
  'evals.launches.release': ['POST', '/api/v1/evals/launches/{launchId}/release', 'registryWrite'],
  'evals.launches.complete': ['POST', '/api/v1/evals/launches/{launchId}/complete', 'registryWrite'],
};

/** The presets the spec's rules allow on `route`. */
function allowedBySpec(route: RouteId): readonly KeyPreset[] {
  const row = ROUTES[route];
  if (row === undefined) throw new Error(`${route} is not in the spec rules of this test`);
  return SPEC_RULES[row[2]];
}

/** A request to a route outside the registry that succeeds when the key is allowed. */
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
  // Signed-link routes take no key, world routes a trial token only (see the tests below).
  const routes = (Object.keys(ROUTE_ACCESS) as RouteId[]).filter(
    (r) => ROUTE_ACCESS[r].auth !== 'signed-link' && ROUTE_ACCESS[r].auth !== 'trial-token',
  );
  const matrix = routes.flatMap((route) =>
    KEY_PRESETS.map((preset) => [route, preset] as [RouteId, KeyPreset]),
  );

  it('lists every key-authenticated route of the table under the spec rule that governs it, at the same method and path', () => {
    const table = Object.fromEntries(
      routes.map((route) => [route, [ROUTE_ACCESS[route].method, ROUTE_ACCESS[route].path]]),
    );
    const written = Object.fromEntries(
      Object.entries(ROUTES).map(([route, [method, path]]) => [route, [method, path]]),
    );
    expect(table).toEqual(written);
  });

  it.each(matrix)('%s with a %s key answers as the spec rules say', async (route, preset) => {
    const key = fx.server.keys[KEY_FIELD[preset]];
    expect(key.startsWith(KEY_PREFIXES[preset])).toBe(true);
    const allowed = allowedBySpec(route).includes(preset);
    const evalCall = evalCalls[route];
    let res: { status: number; text: string };
    const traceId = newTraceId();
    if (route.startsWith('evals.')) {
      if (evalCall === undefined)
        throw new Error(`no succeeding request for ${route} in eval-route-calls.ts`);
      const call = await evalCall(key);
      res = { status: call.answer.status, text: JSON.stringify(call.answer.body) };
      if (allowed) {
        // The exact success: a refusal of any kind (400, 404, 409, 500…) fails here.
        expect(call.answer.status, res.text).toBe(200);
        expect(call.answer.body).toMatchObject(call.success);
      }
    } else {
      seededTrace = newTraceId();
      seededSpan = newSpanId();
      await fx.postJson(
        '/api/v1/otlp/v1/traces',
        tracesRequest([jsonSpan(seededTrace, { spanId: seededSpan })]),
      );
      await upload(fx.server, seededTrace, seededFile);
      const answer = await callRoute(route, `Bearer ${key}`, traceId);
      res = { status: answer.status, text: await answer.text() };
      if (allowed) {
        expect(res.status, res.text).toBe(200);
        if (route === 'otlp.traces') expect((await fx.receipt(traceId)).status).toBe(200);
      }
    }
    if (!allowed) {
      expect(res.status, res.text).toBe(403);
      expect(JSON.parse(res.text)).toMatchObject({ error: { code: 'forbidden' } });
      expect(res.text).not.toContain(key);
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

  it('keeps the spec rules: a Read key cannot ingest (rule 4); only Read and Read-and-write keys read content and files (rules 2, 4, 6)', () => {
    for (const route of ['otlp.traces', 'otlp.logs', 'blobs.reserve', 'blobs.complete'] as const) {
      expect(ROUTE_ACCESS[route].presets).not.toContain(READ);
    }
    for (const route of ['traces.blob', 'traces.search', 'traces.outline', 'traces.span'] as const) {
      expect([...ROUTE_ACCESS[route].presets].sort()).toEqual([READ, READ_WRITE]);
    }
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
});
