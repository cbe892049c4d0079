import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { waitUntil } from '@svc-run/test-support';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNKNOWN_ID } from '../evals/test-support/eval-requests.js';
import { ROUTE_ACCESS } from '../route-table.js';
import { useServer } from '../test-support/server-fixture.js';
import { type Loose, type StartedTrial, scenarioRequests } from './test-support/scenario-requests.js';
import { supportScenario } from './test-support/support-scenario.js';

// Issue 17, "Sealed grading": a hostile agent — with its trial token, its tools and the world's
// MCP endpoint — tries every route of the OpenAPI document, get_scenario, other worlds' IDs,
// pointers outside the state and re-submitting after sealing. It must learn nothing of the checks
// or the goal, and it must not change a sealed outcome.

/** Strings found only in the sealed grading: any answer holding one leaked it. */
const SEALED = ['SEALED-GOAL-7c1', 'SEALED-RUBRIC-2e8', 'SEALED-OUTPUT-5a9', 'SEALED-ARG-3d4'];

function hostileScenario() {
  const document = supportScenario() as Loose;
  document.grading.checks.push(
    {
      name: 'goal note',
      kind: 'state',
      assert: 'equals',
      pointer: '/orders/o1/note',
      value: SEALED[0],
      cases: ['refund-delivered'],
    },
    {
      name: 'tone',
      kind: 'llm_judge',
      rubric: `Grade the tone. ${SEALED[1]}`,
      model: 'judge-1',
      provider: 'mock',
      timeoutMs: 600_000,
    },
    {
      name: 'secret phrase',
      kind: 'output',
      scorer: 'includes',
      expected: SEALED[2],
      cases: ['refund-delivered'],
    },
    {
      name: 'with reason',
      kind: 'tool_call',
      assert: 'called_with',
      tool: 'refund_order',
      arguments: { reason: SEALED[3] },
      cases: ['refund-delivered'],
      required: false,
    },
  );
  return document;
}

const model = new MockLanguageModelV4({
  provider: 'mock',
  modelId: 'judge-1',
  doGenerate: async () => ({
    content: [{ type: 'text', text: JSON.stringify({ explanation: 'Fine.', metrics: { tone: true } }) }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    },
    warnings: [],
  }),
});

const fx = useServer({ judgeModel: model });
const s = scenarioRequests(fx);
const answers: string[] = [];
let started: StartedTrial;
let neighbour: StartedTrial;
const ids: Record<string, string> = {};

function noLeak(text: string, where: string): void {
  answers.push(text);
  for (const marker of SEALED) expect(text, `${where} leaked the sealed grading`).not.toContain(marker);
}

async function agentFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(new URL(path, fx.server.origin), {
    ...init,
    headers: {
      authorization: `Bearer ${started.token}`,
      'content-type': 'application/json',
      ...init.headers,
    },
  });
  noLeak(await res.clone().text(), `${init.method ?? 'GET'} ${path}`);
  return res;
}

beforeAll(async () => {
  const published = (await s.publish(hostileScenario())).body as Loose;
  const runId = await s.run(published.version.id, 2);
  started = await s.start(runId, 'refund-delivered', 1);
  neighbour = await s.start(runId, 'refund-delivered', 2);
  const summary = await s.summary(runId);
  Object.assign(ids, {
    scenarioId: published.scenario.id,
    versionId: published.version.id,
    runId,
    trialId: started.trial.id,
    worldId: started.world.id,
    experimentId: summary.experimentId,
    evaluationRunId: summary.evaluationRunId,
    caseId: summary.cases[0].caseId,
    datasetId: UNKNOWN_ID,
  });
});

describe('a hostile agent', () => {
  it("is refused by every route of the OpenAPI document but its own world's, and no answer holds the checks", async () => {
    const doc = (await (
      await fx.request('/api/v1/openapi.json', { key: fx.server.keys.readWrite })
    ).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const rows = Object.values(ROUTE_ACCESS);
    let tried = 0;
    for (const [template, operations] of Object.entries(doc.paths)) {
      const path = template.replace(/\{(\w+)\}/g, (_whole, name: string) => ids[name] ?? UNKNOWN_ID);
      for (const method of Object.keys(operations)) {
        const row = rows.find((access) => access.path === template && access.method === method.toUpperCase());
        const res = await agentFetch(path, {
          method: method.toUpperCase(),
          ...(method === 'get' ? {} : { body: '{}', headers: { 'idempotency-key': `hostile-${tried}` } }),
        });
        tried++;
        const where = `${method} ${template}`;
        if (row?.auth === 'trial-token') expect([200, 404], where).toContain(res.status);
        // A signed link's route answers 403 to anything but its signature; every other route, 401.
        else if (row?.auth === 'signed-link') expect(res.status, where).toBe(403);
        else expect(res.status, where).toBe(401);
      }
    }
    expect(tried).toBeGreaterThan(60);
  });

  it('cannot use the MCP tool server (get_scenario, get_experiment) or the viewer with its token', async () => {
    const mcp = await fetch(`${fx.server.origin}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${started.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_scenario', arguments: { scenario: ids.scenarioId } },
      }),
    });
    expect(mcp.status).toBe(401);
    noLeak(await mcp.text(), 'MCP');
    const login = await fetch(`${fx.server.origin}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: fx.server.origin },
      body: new URLSearchParams({ key: started.token!, next: '/traces' }),
    });
    expect(login.headers.get('set-cookie') ?? '').not.toContain('svc_session');
    noLeak(await login.text(), 'viewer login');
  });

  it("cannot reach another world, and reads nothing outside its world's state whatever its arguments", async () => {
    const crossed = await agentFetch(`/api/v1/worlds/${neighbour.world.id}/tools/get_order`, {
      method: 'POST',
      body: JSON.stringify({ order_id: 'o1' }),
    });
    expect(crossed.status).toBe(403);
    const client = new Client({ name: 'hostile', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(started.world.mcpUrl), {
        requestInit: { headers: { authorization: `Bearer ${started.token}` } },
      }),
    );
    try {
      for (const orderId of [
        '..',
        '../..',
        '/',
        '',
        '~1',
        '~0',
        '__proto__',
        'constructor',
        '-',
        '0',
        'o1/../../policy',
        '%2e%2e',
      ]) {
        for (const tool of ['get_order', 'refund_order', 'cancel_order']) {
          const result = (await client.callTool({
            name: tool,
            arguments: { order_id: orderId },
          })) as CallToolResult;
          noLeak(JSON.stringify(result), `${tool}(${orderId})`);
        }
        const listed = (await client.callTool({
          name: 'list_orders',
          arguments: { customer: orderId },
        })) as CallToolResult;
        noLeak(JSON.stringify(listed), `list_orders(${orderId})`);
      }
      const { tools } = await client.listTools();
      noLeak(JSON.stringify(tools), 'tools/list');
    } finally {
      await client.close();
    }
  });

  it('cannot change its sealed outcome: no seal with its token, no call after the seal, the seal stays', async () => {
    const first = await s.seal(started.trial.id, { output: 'Refund issued.' });
    expect(first.status).toBe(200);
    const seal = first.body.seal;
    noLeak(JSON.stringify(first.body), 'the seal answer');
    expect(first.body.failedChecks).toEqual(expect.arrayContaining(['goal note', 'secret phrase']));
    const again = await agentFetch(`/api/v1/evals/trials/${started.trial.id}/seal`, {
      method: 'POST',
      headers: { 'idempotency-key': 'hostile-reseal' },
      body: JSON.stringify({ output: SEALED[2] }),
    });
    expect(again.status).toBe(401);
    const call = await agentFetch(`/api/v1/worlds/${started.world.id}/tools/refund_order`, {
      method: 'POST',
      body: JSON.stringify({ order_id: 'o1', reason: 'again' }),
    });
    expect(call.status).toBe(401);
    // Even the Read-and-write key cannot seal it again.
    const reseal = await s.seal(started.trial.id, { output: 'Better answer.' });
    expect(reseal.status).toBe(409);
    const trial = await s.trial(started.trial.id);
    expect(trial).toMatchObject({ seal, output: 'Refund issued.', toolCallCount: first.body.toolCallCount });
  });

  it('learns nothing of the checks from any GET route, whatever the key and the IDs: the sealed part is never shown again', async () => {
    await waitUntil(async () => (await s.trial(started.trial.id)).outcome !== 'pending', 'the judge job');
    const get = async <T>(path: string) => (await s.api.get<T>(path)).body;
    const run = await s.summary(ids.runId!);
    const experiment = await get<{ scorerVersionIds: string[]; datasetVersionId: string; datasetId: string }>(
      `/experiments/${run.experimentId}`,
    );
    const items = await get<{ items: { id: string; subjectId: string }[] }>(
      `/runs/${run.evaluationRunId}/items`,
    );
    const results = await get<{ items: { id: string }[] }>(`/runs/${run.evaluationRunId}/results`);
    const jobs = await get<{ items: { id: string }[] }>(`/runs/${run.evaluationRunId}/judge-jobs`);
    const trial = await s.trial(started.trial.id);
    const pool = [
      ...Object.values(ids),
      ...experiment.scorerVersionIds,
      experiment.datasetVersionId,
      experiment.datasetId,
      trial.executionId!,
      ...items.items.flatMap((item) => [item.id, item.subjectId]),
      ...results.items.map((result) => result.id),
      ...jobs.items.map((job) => job.id),
      UNKNOWN_ID,
    ];
    expect(jobs.items.length).toBeGreaterThan(0);
    const doc = (await (
      await fx.request('/api/v1/openapi.json', { key: fx.server.keys.readWrite })
    ).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    for (const key of [fx.server.keys.read, fx.server.keys.readWrite]) {
      for (const [template, operations] of Object.entries(doc.paths)) {
        if (!('get' in operations) || template.startsWith('/api/v1/worlds/')) continue;
        const params = [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[0]);
        const combinations: string[][] = params.length === 0 ? [[]] : pool.map((id) => params.map(() => id));
        if (params.length === 2) for (const a of pool) for (const b of pool) combinations.push([a, b]);
        for (const values of combinations) {
          let path = template;
          for (const [index, param] of params.entries()) path = path.replace(param, values[index]!);
          noLeak(await (await fx.request(path, { key })).text(), `GET ${path}`);
        }
      }
    }
    expect(answers.length).toBeGreaterThan(1000);
  });
});

afterAll(() => {
  // Something was read at all (the checks above are not vacuous).
  expect(answers.some((text) => text.includes('o1'))).toBe(true);
});
