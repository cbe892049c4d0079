import { describe, expect, it } from 'vitest';
import { type Loose, scenarioRequests } from '../../scenarios/test-support/scenario-requests.js';
import { supportScenario } from '../../scenarios/test-support/support-scenario.js';
import { budgetCharacters } from '../budget/answer-budget.js';
import { errorText, resultCharacters, structured } from '../test-support/mcp-clients.js';
import { useMcp } from '../test-support/mcp-fixture.js';

const mcp = useMcp();
const s = scenarioRequests(mcp.fx);

const SEALED = 'sealed-goal-value-61c';
const INPUT = 'case-input-text-9e4';

function scenarioWithMarkers() {
  const document = supportScenario() as Loose;
  document.cases[0].inputs = { message: INPUT };
  document.grading.checks.push({
    name: 'goal',
    kind: 'state',
    assert: 'equals',
    pointer: '/goal',
    value: SEALED,
  });
  return document;
}

describe('list_scenarios and get_scenario', () => {
  it('list_scenarios answers what GET /api/v1/evals/scenarios answers', async () => {
    await s.publishOk(scenarioWithMarkers());
    const answer = structured<{ items: unknown[] }>(await mcp.call('list_scenarios', { limit: 100 }));
    const api = (
      await s.api.get<{ items: unknown[] }>('/scenarios?limit=100', { key: mcp.fx.server.keys.read })
    ).body;
    expect(answer.items).toEqual(api.items);
  });

  it("get_scenario answers a version's public part: tools and cases, inputs only with include_content, never the grading", async () => {
    const document = scenarioWithMarkers();
    const versionId = await s.publishOk(document);
    const withheld = await mcp.call('get_scenario', { scenario: document.slug });
    const answer = structured<Loose>(withheld);
    expect(answer.version).toMatchObject({ id: versionId, number: 1 });
    expect(answer.tools.map((tool: { name: string }) => tool.name)).toEqual(
      document.world.tools.map((tool: { name: string }) => tool.name),
    );
    expect(answer.cases[0]).toMatchObject({
      key: 'refund-delivered',
      withheld: { inputs: expect.any(Number) },
      files: [
        {
          name: 'receipt.txt',
          mediaType: 'text/plain',
          size: 16,
          sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        },
      ],
    });
    expect(answer.cases[0]).not.toHaveProperty('inputs');
    expect(JSON.stringify(withheld)).not.toContain(INPUT);
    const included = await mcp.call('get_scenario', {
      scenario: answer.scenario.id,
      version: 1,
      include_content: true,
    });
    expect(structured<Loose>(included).cases[0].inputs).toEqual({ message: INPUT });
    for (const result of [withheld, included]) {
      const text = JSON.stringify(result);
      for (const sealed of [SEALED, '"grading', 'refund recorded', 'Refund delivered orders only', 'effect'])
        expect(text).not.toContain(sealed);
    }
  });

  it('answers an unknown scenario or version as an error result', async () => {
    expect(errorText(await mcp.call('get_scenario', { scenario: 'no-such-scenario' }))).toBe(
      'No scenario has this ID or slug.',
    );
    const document = supportScenario();
    await s.publishOk(document);
    expect(errorText(await mcp.call('get_scenario', { scenario: document.slug, version: 9 }))).toBe(
      'The scenario has no version 9.',
    );
  });

  it('fits a large scenario in the budget; its cuts lead to every case', async () => {
    const document = supportScenario() as Loose;
    document.cases = Array.from({ length: 60 }, (_, index) => ({
      key: `case-${index}`,
      inputs: { text: 'x'.repeat(2_000) },
    }));
    document.grading.checks = [{ name: 'any', kind: 'state', assert: 'absent', pointer: '/none' }];
    await s.publishOk(document);
    const seen: string[] = [];
    let args: Record<string, unknown> | undefined = {
      scenario: document.slug,
      include_content: true,
      max_tokens: 2_000,
    };
    for (let round = 0; args !== undefined && round < 100; round++) {
      const result = await mcp.call('get_scenario', args);
      expect(resultCharacters(result)).toBeLessThanOrEqual(budgetCharacters(2_000));
      const answer = structured<Loose>(result);
      for (const item of answer.cases ?? []) seen.push(item.key);
      const next = answer.cuts.find((cut: { at: string }) => cut.at === '/cases');
      args = next?.next.arguments;
    }
    expect(seen).toEqual(document.cases.map((item: { key: string }) => item.key));
  });
});

describe('get_experiment and get_experiment_item on a scenario run', () => {
  it('show its trials as executions of their cases, and their results by check name, never the checks', async () => {
    const versionId = await s.publishOk(scenarioWithMarkers());
    const runId = await s.run(versionId);
    const started = await s.start(runId, 'refund-delivered');
    await s.call(started.world.id, started.token!, 'refund_order', { order_id: 'o1' });
    await s.seal(started.trial.id, { output: 'Refund done.' });
    const run = await s.summary(runId);
    const experiment = structured<Loose>(
      await mcp.call('get_experiment', { experiment_id: run.experimentId }),
    );
    expect(experiment.experiment).toMatchObject({ id: run.experimentId, caseCount: 3 });
    expect(experiment.items[0]).toMatchObject({
      externalKey: 'refund-delivered',
      latestExecution: { state: 'succeeded' },
    });
    const item = await mcp.call('get_experiment_item', {
      experiment_id: run.experimentId,
      case_id: run.cases[0].caseId,
      include_content: true,
    });
    const answer = structured<Loose>(item);
    expect(answer.executions).toHaveLength(1);
    expect(
      answer.results[0].metrics.map((metric: { name: string; passed: boolean }) => [
        metric.name,
        metric.passed,
      ]),
    ).toEqual([
      ['refund recorded', true],
      ['one refund', true],
      ['looked up the order', false],
      ['confirms', true],
      ['goal', false],
    ]);
    expect(JSON.stringify(item)).not.toContain(SEALED);
  });
});

describe('list_local_agents and launch_local_run', () => {
  it('refuses a launch with no live local agent, saying why', async () => {
    const document = supportScenario();
    await s.publishOk(document);
    const agents = structured<{ items: { live: boolean }[] }>(
      await mcp.call('list_local_agents', { limit: 100 }),
    );
    expect(agents.items.filter((agent) => agent.live)).toEqual([]);
    expect(errorText(await mcp.call('launch_local_run', { scenario: document.slug }))).toContain(
      'No local agent is live',
    );
  });

  it("lists live agents and launches a run on one: the run ID and URL, and the worker's next poll leases it", async () => {
    const document = supportScenario();
    await s.publishOk(document);
    const registered = (
      await s.api.post<Loose>('/local-agents', {
        name: 'laptop worker',
        agentFile: 'agent.ts',
        host: 'laptop',
      })
    ).body;
    const agents = structured<{ items: Loose[] }>(await mcp.call('list_local_agents', { limit: 100 }));
    expect(agents.items.find((agent) => agent.id === registered.agent.id)).toMatchObject({
      name: 'laptop worker',
      live: true,
    });
    const launched = structured<Loose>(
      await mcp.call('launch_local_run', { scenario: document.slug, trials: 3 }),
    );
    expect(launched).toMatchObject({
      runId: expect.any(String),
      runUrl: `${mcp.fx.server.origin}/scenarios/runs/${launched.runId}`,
      trials: 3,
      agent: { id: registered.agent.id, name: 'laptop worker' },
    });
    const run = (await s.api.get<Loose>(`/scenario-runs/${launched.runId}`)).body;
    expect(run).toMatchObject({ trials: 3, experimentId: launched.experimentId });
    const polled = (
      await s.api.post<Loose>(`/local-agents/${registered.agent.id}/poll`, {}, { idempotencyKey: null })
    ).body;
    expect(polled.leases).toEqual([expect.objectContaining({ runId: launched.runId, state: 'leased' })]);
    await s.api.post(`/local-agents/${registered.agent.id}/stop`, {});
  });
});
