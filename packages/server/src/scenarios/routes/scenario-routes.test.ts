import { waitUntil } from '@svc-run/test-support';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { UNKNOWN_ID } from '../../evals/test-support/eval-requests.js';
import { useServer } from '../../test-support/server-fixture.js';
import { type Loose, scenarioRequests } from '../test-support/scenario-requests.js';
import { supportScenario } from '../test-support/support-scenario.js';

// The judge answers from the agent's output: polite when it says "please".
const model = new MockLanguageModelV4({
  provider: 'mock',
  modelId: 'judge-1',
  doGenerate: async (options) => {
    const polite = JSON.stringify(options.prompt).includes('please');
    return {
      content: [{ type: 'text', text: JSON.stringify({ explanation: 'Graded.', metrics: { polite } }) }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      },
      warnings: [],
    };
  },
});

const fx = useServer({ judgeModel: model });
const s = scenarioRequests(fx);

/** Runs the refund-delivered case well: looks the order up, refunds it, confirms. */
async function refundWell(runId: string, trial = 1) {
  const started = await s.start(runId, 'refund-delivered', trial);
  const token = started.token!;
  expect((await s.call(started.world.id, token, 'get_order', { order_id: 'o1' })).body).toMatchObject({
    isError: false,
    value: { id: 'o1', status: 'delivered' },
  });
  expect((await s.call(started.world.id, token, 'refund_order', { order_id: 'o1' })).body).toEqual({
    isError: false,
    value: { order_id: 'o1' },
  });
  return started;
}

describe('publishing scenarios', () => {
  it('publishes a version, answers the same document again with it, and a changed document as a new version', async () => {
    const document = supportScenario();
    const first = await s.publish(document);
    expect(first.status).toBe(200);
    const body = first.body as Loose;
    expect(body).toMatchObject({
      created: true,
      scenario: { slug: document.slug, name: 'Customer support', versionCount: 1 },
      version: { number: 1, slug: document.slug, digest: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    const again = await s.publish(JSON.parse(JSON.stringify(document)));
    expect(again.body).toMatchObject({ created: false, version: { id: body.version.id, number: 1 } });
    const changed = await s.publish({ ...document, description: 'Second edition.' });
    expect(changed.body).toMatchObject({
      created: true,
      version: { number: 2 },
      scenario: { versionCount: 2 },
    });
    const bySlug = await s.api.get(`/scenarios/${document.slug}`);
    expect(bySlug.body).toMatchObject({
      id: body.scenario.id,
      description: 'Second edition.',
      versionCount: 2,
    });
    const versions = await s.api.get(`/scenarios/${body.scenario.id}/versions`);
    expect((versions.body as Loose).items.map((version: { number: number }) => version.number)).toEqual([
      1, 2,
    ]);
  });

  it('answers the same idempotency key with the first answer, and refuses it for another document', async () => {
    const document = supportScenario();
    const key = `publish-${document.slug}`;
    const first = await s.publish(document, { idempotencyKey: key });
    const replay = await s.publish(document, { idempotencyKey: key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const other = await s.publish({ ...document, name: 'Other' }, { idempotencyKey: key });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ error: { code: 'idempotency_key_reused' } });
  });

  it('answers every problem of an invalid document at once with its path: 400 for the schema, 422 beyond it', async () => {
    const broken = supportScenario() as Loose;
    broken.slug = 'Bad Slug';
    broken.world.tools[0].effect.op = 'launch';
    broken.cases[0].inputs = undefined;
    const schema = await s.publish(broken);
    expect(schema.status).toBe(400);
    expect(schema.body).toMatchObject({ error: { code: 'invalid_scenario' } });
    expect((schema.body as Loose).error.problems.map((problem: { path: string }) => problem.path)).toEqual(
      expect.arrayContaining(['/slug', '/world/tools/0/effect/op', '/cases/0/inputs']),
    );
    const rules = supportScenario() as Loose;
    rules.grading.checks[0].cases = ['nowhere'];
    rules.world.tools[1].name = 'get_order';
    const beyond = await s.publish(rules);
    expect(beyond.status).toBe(422);
    expect((beyond.body as Loose).error.problems).toEqual(
      expect.arrayContaining([
        { path: '/grading/checks/0/cases/0', message: expect.stringContaining('nowhere') },
        { path: '/world/tools/1/name', message: 'repeats the name of another tool' },
      ]),
    );
    // Nothing was made for the refused documents.
    expect((await s.api.get(`/scenarios/${rules.slug}`)).status).toBe(404);
  });

  it("shows a version's public part only: tools and cases, never the world's data, effects or grading", async () => {
    const document = supportScenario();
    const versionId = await s.publishOk(document);
    const version = (await s.api.get(`/scenario-versions/${versionId}`)).body as Loose;
    expect(version.tools.map((tool: { name: string }) => tool.name)).toEqual([
      'get_order',
      'list_orders',
      'refund_order',
      'cancel_order',
    ]);
    expect(version.tools[0]).toEqual({
      name: 'get_order',
      description: 'Reads an order by its ID.',
      inputSchema: document.world.tools[0]!.arguments,
    });
    expect(version.cases[0]).toMatchObject({
      key: 'refund-delivered',
      inputs: { message: 'Please refund my order o1.' },
      files: [{ name: 'receipt.txt', mediaType: 'text/plain', size: 16, sha256: expect.any(String) }],
    });
    const text = JSON.stringify(version);
    for (const sealed of [
      'effect',
      'precondition',
      'grading',
      'refund recorded',
      'Refund delivered orders only',
      '/refunds',
    ]) {
      expect(text).not.toContain(sealed);
    }
  });

  it('puts each version in the registry: a frozen dataset version of the cases, the checks as scorer versions', async () => {
    const document = supportScenario();
    const published = (await s.publish(document)).body as Loose;
    const dataset = (await s.api.get(`/dataset-versions/${published.version.datasetVersionId}`))
      .body as Loose;
    expect(dataset).toMatchObject({ frozen: true, caseCount: 3 });
    const cases = (await s.api.get(`/dataset-versions/${published.version.datasetVersionId}/cases`))
      .body as Loose;
    expect(cases.items.map((item: { externalKey: string }) => item.externalKey)).toEqual([
      'refund-delivered',
      'refund-shipped',
      'cancel-new',
    ]);
    for (const item of cases.items) expect(item).not.toHaveProperty('expected');
  });
});

describe('runs, trials and grading', () => {
  it('starts a trial with a fresh world and its token, records tool calls in order, seals and grades it by check name', async () => {
    const versionId = await s.publishOk(supportScenario());
    const runId = await s.run(versionId);
    const started = await refundWell(runId);
    expect(started.token).toMatch(/^svc_trial_[A-Za-z0-9_-]{43}$/);
    expect(started.world.mcpUrl).toBe(`${fx.server.origin}/mcp/worlds/${started.world.id}`);
    expect(started.inputs).toEqual({ message: 'Please refund my order o1.' });
    expect(started.files).toEqual([
      expect.objectContaining({ name: 'receipt.txt', content: 'Order o1: 30 EUR' }),
    ]);
    const refused = await s.call(started.world.id, started.token!, 'refund_order', { order_id: 'o2' });
    expect(refused.body).toEqual({ isError: true, message: 'Only delivered orders can be refunded.' });

    const sealed = await s.seal(started.trial.id, { output: 'Your refund for o1 is on its way.' });
    expect(sealed.status).toBe(200);
    expect(sealed.body).toMatchObject({
      state: 'sealed',
      closed: true,
      seal: expect.stringMatching(/^[0-9a-f]{64}$/),
      outcome: 'passed',
      failedChecks: [],
      toolCallCount: 3,
      output: 'Your refund for o1 is on its way.',
      finalState: { refunds: [{ order_id: 'o1' }] },
    });
    expect(sealed.body.checks.map((check) => [check.name, check.status])).toEqual([
      ['refund recorded', 'passed'],
      ['one refund', 'passed'],
      ['looked up the order', 'passed'],
      ['confirms', 'passed'],
    ]);
    const calls = (await s.api.get(`/trials/${started.trial.id}/tool-calls`)).body as Loose;
    expect(
      calls.items.map((call: { seq: number; tool: string; result: { isError: boolean } }) => [
        call.seq,
        call.tool,
        call.result.isError,
      ]),
    ).toEqual([
      [1, 'get_order', false],
      [2, 'refund_order', false],
      [3, 'refund_order', true],
    ]);
  });

  it('shows failed checks by name only, never their expected values; the registry holds one result per check by name', async () => {
    const versionId = await s.publishOk(supportScenario());
    const runId = await s.run(versionId);
    const started = await s.start(runId, 'refund-delivered');
    await s.call(started.world.id, started.token!, 'list_orders', { customer: 'ana' });
    const sealed = (await s.seal(started.trial.id, { output: 'Sorry, I cannot help.' })).body;
    expect(sealed.outcome).toBe('failed');
    expect(sealed.failedChecks).toEqual(['refund recorded', 'one refund', 'looked up the order', 'confirms']);
    const summary = await s.summary(runId);
    expect(summary.cases[0]).toMatchObject({
      caseKey: 'refund-delivered',
      verdict: 'FAIL',
      trials: [{ trial: 1, state: 'sealed', outcome: 'failed', failedChecks: sealed.failedChecks }],
    });
    const view = (await s.api.get(`/experiments/${summary.experimentId}/cases/${summary.cases[0].caseId}`))
      .body as Loose;
    expect(view.executions).toEqual([
      expect.objectContaining({ state: 'succeeded', output: 'Sorry, I cannot help.' }),
    ]);
    expect(view.results).toEqual([
      expect.objectContaining({
        status: 'scored',
        metrics: [
          { name: 'refund recorded', value: false, passed: false },
          { name: 'one refund', value: false, passed: false },
          { name: 'looked up the order', value: false, passed: false },
          { name: 'confirms', value: false, passed: false },
        ],
        explanation: '4 of 4 checks failed: refund recorded, one refund, looked up the order, confirms.',
      }),
    ]);
    const everything = JSON.stringify([sealed, summary, view]);
    for (const expected of ['"count":1', 'order_id":"o1"}', '"refund"', 'caseSensitive'])
      expect(everything).not.toContain(expected);
  });

  it('a sealed outcome is never sealed twice: the same key answers the same seal, any other is refused, the world is closed', async () => {
    const versionId = await s.publishOk(supportScenario());
    const runId = await s.run(versionId);
    const started = await refundWell(runId);
    const first = await s.seal(
      started.trial.id,
      { output: 'Refund done.' },
      { idempotencyKey: `seal-${started.trial.id}` },
    );
    const replay = await s.seal(
      started.trial.id,
      { output: 'Refund done.' },
      { idempotencyKey: `seal-${started.trial.id}` },
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.seal).toBe(first.body.seal);
    const other = await s.seal(started.trial.id, { output: 'Something else.' });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ error: { code: 'already_sealed' } });
    const late = await s.call(started.world.id, started.token!, 'refund_order', { order_id: 'o1' });
    expect(late.status).toBe(401);
    expect(late.body).toMatchObject({ error: { code: 'trial_closed' } });
    const trial = await s.trial(started.trial.id);
    expect(trial).toMatchObject({ seal: first.body.seal, output: 'Refund done.', toolCallCount: 2 });
    const restart = await s.api.post(`/scenario-runs/${runId}/trials`, {
      caseKey: 'refund-delivered',
      trial: 1,
    });
    expect(restart.status).toBe(409);
  });

  it('an agent error seals an errored trial: no check is graded', async () => {
    const versionId = await s.publishOk(supportScenario());
    const runId = await s.run(versionId);
    const started = await s.start(runId, 'refund-shipped');
    const sealed = (await s.seal(started.trial.id, { error: { type: 'TypeError', message: 'boom' } })).body;
    expect(sealed).toMatchObject({
      outcome: 'errored',
      executionState: 'error',
      checks: [],
      error: { type: 'TypeError' },
    });
    const summary = await s.summary(runId);
    expect(summary.cases[1]).toMatchObject({ verdict: 'ERROR', passHatK: 0 });
  });

  it('reports pass^k per case over k trials', async () => {
    const versionId = await s.publishOk(supportScenario());
    const runId = await s.run(versionId, 3);
    for (const trial of [1, 2, 3]) {
      const started = await refundWell(runId, trial);
      await s.seal(started.trial.id, { output: 'Refund done.' });
    }
    for (const trial of [1, 2, 3]) {
      const started = await s.start(runId, 'refund-shipped', trial);
      if (trial === 3) await s.call(started.world.id, started.token!, 'cancel_order', { order_id: 'o2' });
      if (trial === 2) await s.call(started.world.id, started.token!, 'refund_order', { order_id: 'o2' });
      await s.seal(started.trial.id, { output: 'Shipped orders cannot be refunded.' });
    }
    const summary = await s.summary(runId);
    expect(summary.trials).toBe(3);
    expect(summary.cases[0]).toMatchObject({
      caseKey: 'refund-delivered',
      passed: 3,
      graded: 3,
      passHatK: 1,
      verdict: 'PASS',
    });
    // The refused refund of trial 2 is an error result: not a call, so the policy held every time.
    expect(summary.cases[1]).toMatchObject({
      caseKey: 'refund-shipped',
      passed: 3,
      graded: 3,
      passHatK: 1,
      verdict: 'PASS',
    });
    expect(summary.cases[2]).toMatchObject({
      caseKey: 'cancel-new',
      graded: 0,
      passHatK: null,
      verdict: null,
    });
    expect(summary).toMatchObject({
      complete: false,
      passHatK: null,
      totals: { trials: 9, sealed: 6, passed: 6 },
    });
    expect(summary.runUrl).toBe(`${fx.server.origin}/scenarios/runs/${runId}`);
  });

  it('grades llm_judge checks through hosted judge jobs (pending until the job ends)', async () => {
    const document = supportScenario() as Loose;
    document.grading.checks.push({
      name: 'polite',
      kind: 'llm_judge',
      rubric: 'Is the answer polite? (sealed-rubric-4b2)',
      model: 'judge-1',
      provider: 'mock',
      timeoutMs: 600_000,
      cases: ['refund-delivered'],
    });
    const versionId = await s.publishOk(document);
    const runId = await s.run(versionId, 2);
    const polite = await refundWell(runId, 1);
    const sealed = (await s.seal(polite.trial.id, { output: 'Your refund is done, please come again.' }))
      .body;
    expect(sealed.checks.find((check) => check.name === 'polite')).toMatchObject({
      kind: 'llm_judge',
      required: true,
    });
    const graded = await waitUntil(async () => {
      const trial = await s.trial(polite.trial.id);
      return trial.outcome !== 'pending' && trial;
    }, 'the judge job of the polite trial');
    expect(graded.outcome).toBe('passed');
    const curt = await refundWell(runId, 2);
    await s.seal(curt.trial.id, { output: 'Refund done.' });
    const failed = await waitUntil(async () => {
      const trial = await s.trial(curt.trial.id);
      return trial.outcome !== 'pending' && trial;
    }, 'the judge job of the curt trial');
    expect(failed).toMatchObject({ outcome: 'failed', failedChecks: ['polite'] });
    // The rubric is sealed: the judge's scorer version shows its kind and metric, never its config.
    const run = await s.summary(runId);
    const experiment = (await s.api.get(`/experiments/${run.experimentId}`)).body as Loose;
    const versions = await Promise.all(
      experiment.scorerVersionIds.map(async (id: string) => (await s.api.get(`/scorer-versions/${id}`)).body),
    );
    const judge = versions.find((version: Loose) => version.definition.kind === 'llm_judge') as Loose;
    expect(judge).toMatchObject({
      sealed: true,
      definition: { metrics: [{ name: 'polite', type: 'boolean' }] },
    });
    expect(JSON.stringify(versions)).not.toContain('sealed-rubric-4b2');
  });

  it('keeps two concurrent trials apart: each world sees only its own state', async () => {
    const versionId = await s.publishOk(supportScenario());
    const runId = await s.run(versionId, 2);
    const [a, b] = await Promise.all([
      s.start(runId, 'refund-delivered', 1),
      s.start(runId, 'refund-delivered', 2),
    ]);
    await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        index % 2 === 0
          ? s.call(a!.world.id, a!.token!, 'refund_order', { order_id: 'o1', reason: `a${index}` })
          : s.call(b!.world.id, b!.token!, 'cancel_order', { order_id: 'o2' }),
      ),
    );
    const sealedA = (await s.seal(a!.trial.id, { output: 'done' })).body as Loose;
    const sealedB = (await s.seal(b!.trial.id, { output: 'done' })).body as Loose;
    expect(sealedA.finalState.refunds).toEqual([
      { order_id: 'o1', reason: 'a0' },
      { order_id: 'o1', reason: 'a2' },
      { order_id: 'o1', reason: 'a4' },
    ]);
    expect(sealedA.finalState.orders.o2.status).toBe('shipped');
    expect(sealedB.finalState.refunds).toEqual([]);
    expect(sealedB.finalState.orders.o2.status).toBe('cancelled');
  });

  it("refuses unknown runs and cases, a trial past the run's trials, and a seal with both output and error", async () => {
    const versionId = await s.publishOk(supportScenario());
    const runId = await s.run(versionId, 2);
    expect(
      (await s.api.post(`/scenario-runs/${UNKNOWN_ID}/trials`, { caseKey: 'refund-delivered', trial: 1 }))
        .status,
    ).toBe(404);
    expect((await s.api.post(`/scenario-runs/${runId}/trials`, { caseKey: 'nope', trial: 1 })).status).toBe(
      404,
    );
    expect(
      (await s.api.post(`/scenario-runs/${runId}/trials`, { caseKey: 'refund-delivered', trial: 3 })).status,
    ).toBe(422);
    expect((await s.api.post('/scenario-runs', { scenarioVersionId: UNKNOWN_ID })).status).toBe(404);
    const started = await s.start(runId, 'refund-delivered');
    const both = await s.seal(started.trial.id, { output: 1, error: { type: 'X' } });
    expect(both.status).toBe(422);
    expect((await s.trial(started.trial.id)).state).toBe('open');
  });
});

describe('trial expiry', () => {
  const expired = useServer({ scenarios: { trialTtlMillis: 0 } });
  const e = scenarioRequests(expired);

  it("an expired trial's token is dead, and the trial can still be sealed", async () => {
    const versionId = await e.publishOk(supportScenario());
    const runId = await e.run(versionId);
    const started = await e.start(runId, 'refund-delivered');
    expect(started.token).toBeNull();
    expect(started.trial.closed).toBe(true);
    const sealed = await e.seal(started.trial.id, { output: 'Could not reach the tools.' });
    expect(sealed.body).toMatchObject({ state: 'sealed', outcome: 'failed' });
  });
});
