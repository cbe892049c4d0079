import { waitUntil } from '@svc-run/test-support';
import { MockLanguageModelV4 } from 'ai/test';
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer } from '../../test-support/server-fixture.js';
import { type ErrorBody, evalRequests, UNKNOWN_ID } from '../test-support/eval-requests.js';
import { datasetVersion, experiment, scorerVersion } from '../test-support/eval-setup.js';

type Answer = (prompt: string, signal: AbortSignal | undefined) => Promise<string>;
let answer: Answer = async () => '{}';
const prompts: string[] = [];

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const model = new MockLanguageModelV4({
  provider: 'mock',
  modelId: 'judge-1',
  doGenerate: async (options) => {
    const prompt = JSON.stringify(options.prompt);
    prompts.push(prompt);
    const text = await answer(prompt, options.abortSignal);
    return {
      content: [{ type: 'text', text }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
    };
  },
});

const fx = useServer({ judgeModel: model, judgeJobLimit: 12 });
const unconfigured = useServer({ judgeJobLimit: 3 });
const api = evalRequests(fx);

interface Job {
  id: string;
  state: string;
  resultId: string | null;
  error: { type: string; message?: string } | null;
  cancelReason: string | null;
}

const JUDGE = {
  kind: 'llm_judge',
  metrics: [
    { name: 'polite', type: 'boolean' },
    { name: 'tone', type: 'category', categories: ['warm', 'cold'] },
  ],
  config: {
    model: 'judge-1',
    provider: 'mock',
    rubric: 'Is the reply polite? (rubric-marker-5d1)',
    bindings: [
      { name: 'reply', path: '/output', required: true },
      { name: 'question', path: '/inputs/question', required: false },
    ],
    maxOutputTokens: 100,
    // The most the definition allows: a loaded machine must never turn an answer into a timeout.
    timeoutMs: 600_000,
  },
};

/** The same judge with the shortest timeout, for the one test of a model that never answers. */
const QUICK_JUDGE = { ...JUDGE, config: { ...JUDGE.config, timeoutMs: 1000 } };

async function judgeSetup(requests: ReturnType<typeof evalRequests>) {
  const { versionId, caseIds } = await datasetVersion(requests, [
    { externalKey: 'thanks', inputs: { question: 'Refund?' } },
    { externalKey: 'rude', inputs: {} },
    { externalKey: 'silent', inputs: {} },
  ]);
  const judge = await scorerVersion(requests, JUDGE);
  const quickJudge = await scorerVersion(requests, QUICK_JUDGE);
  const exact = await scorerVersion(requests, { kind: 'builtin', builtin: 'exact_match' });
  const created = await experiment(requests, versionId, [judge, quickJudge, exact]);
  const outputs = [{ output: 'Thank you, the refund is on its way.' }, { output: 'Go away.' }, {}];
  const items: string[] = [];
  for (const [index, caseId] of caseIds.entries()) {
    const started = await requests.post<{ id: string }>(
      `/experiments/${created.id}/cases/${caseId}/executions`,
      {},
    );
    const done = await requests.post<{ evaluationItemId: string }>(
      `/executions/${started.body.id}/complete`,
      {
        state: 'succeeded',
        ...outputs[index],
      },
    );
    items.push(done.body.evaluationItemId);
  }
  return { runId: created.evaluationRunId, judge, quickJudge, exact, items };
}

async function settled(requests: ReturnType<typeof evalRequests>, jobId: string): Promise<Job> {
  return waitUntil(
    async () => {
      const job = await requests.get<Job>(`/judge-jobs/${jobId}`);
      return !['queued', 'running'].includes(job.body.state) && job.body;
    },
    'the judge job to settle',
    20,
  );
}

const ctx = {} as Awaited<ReturnType<typeof judgeSetup>>;
beforeAll(async () => {
  Object.assign(ctx, await judgeSetup(api));
});

function createJobs(jobs: unknown[], runId = ctx.runId) {
  return api.post<{ ids: string[] } & ErrorBody>(`/runs/${runId}/judge-jobs`, { jobs });
}

describe('hosted judge jobs', () => {
  it('grades an item through the model and stores the result', async () => {
    answer = async () =>
      JSON.stringify({ explanation: 'Courteous and helpful.', metrics: { polite: true, tone: 'warm' } });
    prompts.length = 0;
    const created = await createJobs([{ evaluationItemId: ctx.items[0], scorerVersionId: ctx.judge }]);
    expect(created.status).toBe(200);
    const job = await settled(api, created.body.ids[0]!);
    expect(job).toMatchObject({ state: 'succeeded', error: null });
    const result = await api.get(`/results/${job.resultId}`, { key: fx.server.keys.read });
    expect(result.body).toMatchObject({
      status: 'scored',
      judgeJobId: job.id,
      evaluationItemId: ctx.items[0],
      scorerVersionId: ctx.judge,
      explanation: 'Courteous and helpful.',
      metrics: [
        { name: 'polite', value: true, passed: true },
        { name: 'tone', value: 'warm' },
      ],
    });
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain('rubric-marker-5d1');
    expect(prompts[0]).toContain('the refund is on its way');
    expect(prompts[0]).toContain('Refund?');
    const listed = await api.get<{ items: Job[] }>(`/runs/${ctx.runId}/judge-jobs`, {
      key: fx.server.keys.read,
    });
    expect(listed.body.items.map((j) => j.id)).toContain(job.id);
    const again = await createJobs([{ evaluationItemId: ctx.items[0], scorerVersionId: ctx.judge }]);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain('result');
  });

  it('ends in error when the answer does not match the metric definitions, storing nothing', async () => {
    answer = async () => JSON.stringify({ explanation: 'x', metrics: { polite: 'very', tone: 'warm' } });
    const created = await createJobs([{ evaluationItemId: ctx.items[1], scorerVersionId: ctx.judge }]);
    const job = await settled(api, created.body.ids[0]!);
    expect(job).toMatchObject({ state: 'error', resultId: null, error: { type: 'invalid_judge_output' } });
    answer = async () => 'not json at all';
    const retry = await createJobs([{ evaluationItemId: ctx.items[1], scorerVersionId: ctx.judge }]);
    const failed = await settled(api, retry.body.ids[0]!);
    expect(failed.state).toBe('error');
    expect(failed.error?.message).not.toContain('not json');
  });

  it('ends in error without calling the model when a required binding has no value', async () => {
    prompts.length = 0;
    const created = await createJobs([{ evaluationItemId: ctx.items[2], scorerVersionId: ctx.judge }]);
    const job = await settled(api, created.body.ids[0]!);
    expect(job).toMatchObject({ state: 'error', error: { type: 'missing_binding' } });
    expect(job.error?.message).toContain('/output');
    expect(prompts).toHaveLength(0);
  });

  it('cancels a running job: the model call is stopped and no result is stored', async () => {
    let aborted = false;
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    answer = (_prompt, signal) =>
      new Promise((_resolve, reject) => {
        started();
        signal?.addEventListener('abort', () => {
          aborted = true;
          reject(signal.reason);
        });
      });
    const created = await createJobs([{ evaluationItemId: ctx.items[1], scorerVersionId: ctx.judge }]);
    await running;
    const cancelled = await api.post<Job>(`/judge-jobs/${created.body.ids[0]}/cancel`, {
      reason: 'wrong rubric',
    });
    expect(cancelled.body).toMatchObject({ state: 'cancelled', cancelReason: 'wrong rubric' });
    const job = await settled(api, created.body.ids[0]!);
    expect(job).toMatchObject({ state: 'cancelled', resultId: null });
    expect(aborted).toBe(true);
    expect((await api.get<Job>(`/judge-jobs/${job.id}`)).body.state).toBe('cancelled');
    const twice = await api.post<ErrorBody>(`/judge-jobs/${job.id}/cancel`, { reason: 'again' });
    expect(twice.status).toBe(409);
    expect((await api.post<ErrorBody>(`/judge-jobs/${job.id}/cancel`, {})).status).toBe(400);
  });

  it('ends in error (timeout) when the model does not answer within timeoutMs', async () => {
    // A model that never answers: only the judge's own timeout can end the job.
    answer = (_prompt, signal) =>
      new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
    const created = await createJobs([{ evaluationItemId: ctx.items[1], scorerVersionId: ctx.quickJudge }]);
    const job = await settled(api, created.body.ids[0]!);
    expect(job).toMatchObject({ state: 'error', error: { type: 'timeout' } });
  });

  it('refuses jobs for other scorers, other runs, repeats and active pairs', async () => {
    // 422: the request keeps to the schema but breaks a rule it cannot state.
    const exact = await createJobs([{ evaluationItemId: ctx.items[1], scorerVersionId: ctx.exact }]);
    expect(exact.status).toBe(422);
    expect(exact.body.error.message).toContain('llm_judge');
    const unpinned = await createJobs([{ evaluationItemId: ctx.items[1], scorerVersionId: UNKNOWN_ID }]);
    expect(unpinned.status).toBe(422);
    const foreign = await createJobs([{ evaluationItemId: UNKNOWN_ID, scorerVersionId: ctx.judge }]);
    expect(foreign.status).toBe(404);
    const repeated = await createJobs([
      { evaluationItemId: ctx.items[1], scorerVersionId: ctx.judge },
      { evaluationItemId: ctx.items[1], scorerVersionId: ctx.judge },
    ]);
    expect(repeated.status).toBe(422);
    expect(
      (await createJobs([{ evaluationItemId: ctx.items[1], scorerVersionId: ctx.judge }], UNKNOWN_ID)).status,
    ).toBe(404);
    expect((await api.get(`/judge-jobs/${UNKNOWN_ID}`)).status).toBe(404);
    expect((await createJobs([])).status).toBe(400);
    const readKey = await api.post(
      `/runs/${ctx.runId}/judge-jobs`,
      { jobs: [{ evaluationItemId: ctx.items[1], scorerVersionId: ctx.judge }] },
      { key: fx.server.keys.read },
    );
    expect(readKey.status).toBe(403);
  });

  it('reports the budget', async () => {
    const budget = await api.get<{
      jobLimit: number;
      jobsUsed: number;
      jobsRemaining: number;
      modelConfigured: boolean;
    }>('/judge/budget', { key: fx.server.keys.read });
    expect(budget.body).toMatchObject({ jobLimit: 12, modelConfigured: true });
    expect(budget.body.jobsUsed).toBeGreaterThan(0);
    expect(budget.body.jobsUsed + budget.body.jobsRemaining).toBe(12);
    expect((await api.get('/judge/budget', { key: fx.server.keys.tracing })).status).toBe(403);
  });
});

describe('hosted judge without a model', () => {
  it('ends every job in error saying no judge model is configured', async () => {
    const requests = evalRequests(unconfigured);
    const setup = await judgeSetup(requests);
    expect((await requests.get('/judge/budget')).body).toMatchObject({ modelConfigured: false });
    const created = await requests.post<{ ids: string[] }>(`/runs/${setup.runId}/judge-jobs`, {
      jobs: [{ evaluationItemId: setup.items[0], scorerVersionId: setup.judge }],
    });
    const job = await settled(requests, created.body.ids[0]!);
    expect(job).toMatchObject({ state: 'error', resultId: null, error: { type: 'judge_not_configured' } });
    expect(job.error?.message).toContain('No judge model is configured');
  });

  it('counts jobs against the budget and refuses a request beyond it', async () => {
    const requests = evalRequests(unconfigured);
    const used = (await requests.get<{ jobsUsed: number }>('/judge/budget')).body.jobsUsed;
    const first = await judgeSetup(requests);
    const fits = first.items
      .slice(0, 3 - used)
      .map((evaluationItemId) => ({ evaluationItemId, scorerVersionId: first.judge }));
    expect((await requests.post(`/runs/${first.runId}/judge-jobs`, { jobs: fits })).status).toBe(200);
    expect((await requests.get('/judge/budget')).body).toMatchObject({ jobsUsed: 3, jobsRemaining: 0 });
    const second = await judgeSetup(requests);
    const beyond = await requests.post<ErrorBody>(`/runs/${second.runId}/judge-jobs`, {
      jobs: [{ evaluationItemId: second.items[0], scorerVersionId: second.judge }],
    });
    expect(beyond.status).toBe(409);
    expect(beyond.body.error.code).toBe('budget_exhausted');
  });
});
