import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import type { ScenarioDocument } from '../types/scenario-document.js';
import { expectApiError, UNKNOWN_ID, useEvalServer } from './__fixtures__/eval-server.js';
import { refundsScenario } from './__fixtures__/scenario-document.js';
import { createWorldClient } from './world-client.js';

const evals = useEvalServer();

describe('evaluation client: scenarios', () => {
  it('publishes a document, answers the same document with its version, reads it back (public part only)', async () => {
    const document = refundsScenario();
    const published = await evals.client.publishScenario(document);
    expect(published).toMatchObject({
      created: true,
      scenario: { slug: document.slug },
      version: { number: 1 },
    });
    const again = await evals.client.publishScenario(structuredClone(document));
    expect(again).toMatchObject({ created: false, version: { id: published.version.id } });
    expect(await evals.reader.getScenario(document.slug)).toEqual(again.scenario);
    const version = await evals.reader.getScenarioVersion(published.version.id);
    expect(version.tools.map((tool) => tool.name)).toEqual(['get_order', 'refund_order']);
    expect(version.cases[0]).toMatchObject({ key: 'refund', files: [{ name: 'note.txt', size: 2 }] });
    expect(JSON.stringify(version)).not.toContain('grading');
    const versions = await evals.reader.listScenarioVersions(published.scenario.id);
    expect(versions.items.map((item) => item.id)).toEqual([published.version.id]);
    const page = await evals.reader.listScenarios({ limit: 100 });
    expect(page.items.map((item) => item.id)).toContain(published.scenario.id);
  });

  it('retries a publish with its idempotency key, and refuses the key for another document', async () => {
    const document = refundsScenario();
    const key = evals.client.newIdempotencyKey();
    const first = await evals.client.publishScenario(document, { idempotencyKey: key });
    expect(await evals.client.publishScenario(document, { idempotencyKey: key })).toEqual(first);
    await expectApiError(
      evals.client.publishScenario({ ...document, name: 'Changed' }, { idempotencyKey: key }),
      409,
      'idempotency_key_reused',
    );
  });

  it('refuses an invalid document with every problem and its path, never echoing the document', async () => {
    const document = refundsScenario() as ScenarioDocument & Record<string, unknown>;
    document.slug = 'NOT A SLUG';
    (document.world.tools[0]!.effect as { op: string }).op = 'SECRET-OP';
    const error = await expectApiError(evals.client.publishScenario(document), 400, 'invalid_scenario', [
      'SECRET-OP',
    ]);
    expect(error.problems?.map((problem) => problem.path)).toEqual(['/slug', '/world/tools/0/effect/op']);
    expect(error.message).toContain('(2 problems)');
    const rules = refundsScenario();
    rules.grading.checks[0]!.cases = ['nowhere'];
    const beyond = await expectApiError(evals.client.publishScenario(rules), 422, 'invalid_scenario');
    expect(beyond.problems).toEqual([
      { path: '/grading/checks/0/cases/0', message: expect.stringContaining('nowhere') },
    ]);
    await expectApiError(evals.reader.publishScenario(refundsScenario()), 403);
    await expect(evals.client.publishScenario(null as unknown as ScenarioDocument)).rejects.toThrow(
      TypeError,
    );
  });

  it('runs trials: start, world tools over HTTP and MCP with the token, seal (idempotent, never twice), pass^k', async () => {
    const published = await evals.client.publishScenario(refundsScenario());
    const run = await evals.client.createScenarioRun({
      idempotencyKey: evals.client.newIdempotencyKey(),
      scenarioVersionId: published.version.id,
      trials: 2,
    });
    expect(run).toMatchObject({
      trials: 2,
      complete: false,
      runUrl: `${evals.server.origin}/scenarios/runs/${run.id}`,
    });
    const startKey = evals.client.newIdempotencyKey();
    const started = await evals.client.startTrial(run.id, {
      idempotencyKey: startKey,
      caseKey: 'refund',
      trial: 1,
    });
    // A lost answer: the same key answers the same trial and token.
    expect(
      await evals.client.startTrial(run.id, { idempotencyKey: startKey, caseKey: 'refund', trial: 1 }),
    ).toEqual(started);
    expect(started.inputs).toEqual({ message: 'Refund o1.' });
    const world = createWorldClient({
      token: started.token!,
      toolsUrl: started.world.toolsUrl,
      timeoutMillis: 60_000,
    });
    expect((await world.listTools()).map((tool) => tool.name)).toEqual(['get_order', 'refund_order']);
    expect(await world.callTool('get_order', { order_id: 'o2' })).toEqual({
      isError: false,
      value: { status: 'shipped' },
    });
    const tools = await world.toolFunctions();
    expect(await tools.refund_order!({ order_id: 'o2' })).toEqual({
      isError: true,
      message: 'Only delivered orders can be refunded.',
    });
    const mcp = new Client({ name: 'sdk-tests', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(started.world.mcpUrl), {
        requestInit: { headers: { authorization: `Bearer ${started.token}` } },
      }),
    );
    await mcp.callTool({ name: 'refund_order', arguments: { order_id: 'o1' } });
    await mcp.close();
    const calls = await evals.reader.listTrialToolCalls(started.trial.id);
    expect(calls.items.map((call) => call.tool)).toEqual(['get_order', 'refund_order', 'refund_order']);
    const sealKey = evals.client.newIdempotencyKey();
    const sealed = await evals.client.sealTrial(started.trial.id, {
      idempotencyKey: sealKey,
      output: 'Refund issued.',
    });
    expect(sealed).toMatchObject({ state: 'sealed', outcome: 'passed', failedChecks: [] });
    expect(
      await evals.client.sealTrial(started.trial.id, { idempotencyKey: sealKey, output: 'Refund issued.' }),
    ).toEqual(sealed);
    await expectApiError(
      evals.client.sealTrial(started.trial.id, {
        idempotencyKey: evals.client.newIdempotencyKey(),
        output: 'again',
      }),
      409,
      'already_sealed',
    );
    const closed = await expectApiError(
      world.callTool('get_order', { order_id: 'o1' }),
      401,
      'trial_closed',
      [started.token!],
    );
    expect(closed.message).toContain('sealed or expired');
    const second = await evals.client.startTrial(run.id, {
      idempotencyKey: evals.client.newIdempotencyKey(),
      caseKey: 'refund',
      trial: 2,
    });
    await evals.client.sealTrial(second.trial.id, {
      idempotencyKey: evals.client.newIdempotencyKey(),
      output: 'No.',
    });
    const summary = await evals.reader.getScenarioRun(run.id);
    expect(summary.cases[0]).toMatchObject({
      caseKey: 'refund',
      passed: 1,
      graded: 2,
      passHatK: 0,
      verdict: 'FAIL',
    });
    expect(summary.cases[0]!.trials[1]).toMatchObject({
      outcome: 'failed',
      failedChecks: ['refunded', 'says so'],
    });
    expect((await evals.reader.getTrial(second.trial.id)).failedChecks).toEqual(['refunded', 'says so']);
    const runs = await evals.reader.listScenarioRuns(published.scenario.id);
    expect(runs.items.map((item) => item.id)).toEqual([run.id]);
  });

  it("a world client's token is refused by another world, and its options are checked", async () => {
    const published = await evals.client.publishScenario(refundsScenario());
    const run = await evals.client.createScenarioRun({
      idempotencyKey: evals.client.newIdempotencyKey(),
      scenarioVersionId: published.version.id,
    });
    const a = await evals.client.startTrial(run.id, {
      idempotencyKey: evals.client.newIdempotencyKey(),
      caseKey: 'refund',
      trial: 1,
    });
    const b = await evals.client.startTrial(run.id, {
      idempotencyKey: evals.client.newIdempotencyKey(),
      caseKey: 'refuse',
      trial: 1,
    });
    const crossed = createWorldClient({ token: a.token!, toolsUrl: b.world.toolsUrl, timeoutMillis: 60_000 });
    const error = await expectApiError(crossed.listTools(), 403, 'forbidden', [a.token!]);
    expect(error.message).toContain("its own world's tools");
    expect(() => createWorldClient({ token: 'svc_rw_nope', toolsUrl: a.world.toolsUrl })).toThrow(
      /token must be a trial token/,
    );
    expect(() =>
      createWorldClient({ token: a.token!, toolsUrl: `${evals.server.origin}/api/v1/evals/scenarios` }),
    ).toThrow(/toolsUrl/);
    await expectApiError(evals.reader.getTrial(UNKNOWN_ID), 404);
  });
});

describe('evaluation client: local agents and launches', () => {
  it('registers, polls, launches on a live worker, releases, completes and stops', async () => {
    const published = await evals.client.publishScenario(refundsScenario());
    const refused = await expectApiError(
      evals.client.launchLocalRun({
        idempotencyKey: evals.client.newIdempotencyKey(),
        scenarioId: published.scenario.slug,
      }),
      409,
      'no_live_worker',
    );
    expect(refused.message).toContain('svc eval --worker');
    const registered = await evals.client.registerLocalAgent({
      idempotencyKey: evals.client.newIdempotencyKey(),
      name: 'worker',
      agentFile: 'agent.ts',
      host: 'ci',
    });
    expect(registered).toMatchObject({
      agent: { live: true },
      pollIntervalMillis: expect.any(Number),
      liveMillis: expect.any(Number),
    });
    const launched = await evals.client.launchLocalRun({
      idempotencyKey: evals.client.newIdempotencyKey(),
      scenarioId: published.scenario.slug,
      agentId: registered.agent.id,
      trials: 2,
    });
    expect(launched).toMatchObject({
      launch: { state: 'queued', trials: 2 },
      agent: { id: registered.agent.id },
    });
    const polled = await evals.client.pollLocalAgent(registered.agent.id);
    expect(polled.leases.map((lease) => lease.id)).toEqual([launched.launch.id]);
    expect(await evals.client.pollLocalAgent(registered.agent.id)).toMatchObject({
      leases: [{ id: launched.launch.id }],
    });
    const released = await evals.client.releaseLaunch(launched.launch.id, {
      idempotencyKey: evals.client.newIdempotencyKey(),
      agentId: registered.agent.id,
    });
    expect(released.state).toBe('queued');
    await evals.client.pollLocalAgent(registered.agent.id);
    const completed = await evals.client.completeLaunch(launched.launch.id, {
      idempotencyKey: evals.client.newIdempotencyKey(),
      agentId: registered.agent.id,
    });
    expect(completed).toMatchObject({ state: 'completed', runId: launched.launch.runId });
    expect(await evals.reader.getLaunch(launched.launch.id)).toEqual(completed);
    const stopped = await evals.client.stopLocalAgent(registered.agent.id, evals.client.newIdempotencyKey());
    expect(stopped).toMatchObject({ live: false });
    const agents = await evals.reader.listLocalAgents({ limit: 100 });
    expect(agents.items.find((agent) => agent.id === registered.agent.id)).toMatchObject({ live: false });
    await expectApiError(evals.client.pollLocalAgent(registered.agent.id), 409, 'conflict');
    const none = await expectApiError(
      evals.client.launchLocalRun({
        idempotencyKey: evals.client.newIdempotencyKey(),
        scenarioId: published.scenario.id,
      }),
      409,
      'no_live_worker',
    );
    expect(none.message).toContain('svc eval --worker');
  });
});
