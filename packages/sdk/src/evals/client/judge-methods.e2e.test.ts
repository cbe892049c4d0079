import { waitUntil } from '@svc-run/test-support';
import { MockLanguageModelV4 } from 'ai/test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JudgeJob } from '../types/judge-types.js';
import {
  completedExperiment,
  exactMatchVersion,
  expectApiError,
  frozenVersion,
  UNKNOWN_ID,
  uniqueSlug,
  useEvalServer,
} from './__fixtures__/eval-server.js';
import type { EvaluationClient } from './evaluation-client.js';

let hold: Promise<void> | undefined;
const model = new MockLanguageModelV4({
  provider: 'mock',
  modelId: 'judge-1',
  doGenerate: async (options) => {
    if (hold !== undefined) {
      await new Promise<void>((_resolve, reject) =>
        options.abortSignal?.addEventListener('abort', () => reject(options.abortSignal?.reason)),
      );
    }
    return {
      content: [
        {
          type: 'text',
          text: JSON.stringify({ explanation: 'Polite and clear.', metrics: { polite: true } }),
        },
      ],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 5, noCache: 5, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 5, text: 5, reasoning: undefined },
      },
      warnings: [],
    };
  },
});

const evals = useEvalServer({ judgeModel: model, judgeJobLimit: 50 });
const ctx = {} as { runId: string; items: string[]; judge: string; exact: string };

/** The job once it settled, however long the loaded machine takes to run it. */
function settled(client: EvaluationClient, id: string): Promise<JudgeJob> {
  return waitUntil(
    async () => {
      const job = await client.getJudgeJob(id);
      return job.state !== 'queued' && job.state !== 'running' && job;
    },
    `judge job ${id} to settle`,
    20,
  );
}

beforeAll(async () => {
  const client = evals.client;
  const { versionId, caseIds } = await frozenVersion(client, [
    { externalKey: 'a', inputs: { q: 'refund?' } },
    { externalKey: 'b', inputs: { q: 'hours?' } },
  ]);
  const scorer = await client.createScorer({ name: 'Polite judge', slug: uniqueSlug('judge') });
  ctx.judge = (
    await client.publishScorerVersion(scorer.id, {
      kind: 'llm_judge',
      metrics: [{ name: 'polite', type: 'boolean' }],
      config: {
        model: 'judge-1',
        provider: 'mock',
        rubric: 'Is the reply polite?',
        bindings: [
          { name: 'reply', path: '/output', required: true },
          { name: 'question', path: '/inputs/q', required: false },
        ],
        maxOutputTokens: 100,
        // The longest allowed: the model answers at once, unless a test holds it until cancelled.
        timeoutMs: 600_000,
      },
    })
  ).id;
  ctx.exact = await exactMatchVersion(client);
  const { runId, items } = await completedExperiment(
    client,
    { name: 'Judged', versionId, caseIds, scorerVersionIds: [ctx.judge, ctx.exact] },
    'Happy to help!',
  );
  Object.assign(ctx, { runId, items });
});

describe('evaluation client: hosted judge', () => {
  it('reads the budget, runs a job to its result and lists jobs', async () => {
    const before = await evals.reader.getJudgeBudget();
    expect(before).toMatchObject({ jobLimit: 50, modelConfigured: true });
    const { ids } = await evals.client.createJudgeJobs(ctx.runId, {
      idempotencyKey: evals.client.newIdempotencyKey(),
      jobs: [{ evaluationItemId: ctx.items[0]!, scorerVersionId: ctx.judge }],
    });
    const job = await settled(evals.reader, ids[0]!);
    expect(job).toMatchObject({ state: 'succeeded', runId: ctx.runId, error: null });
    const result = await evals.reader.getResult(job.resultId!);
    expect(result).toMatchObject({
      status: 'scored',
      judgeJobId: job.id,
      explanation: 'Polite and clear.',
      metrics: [{ name: 'polite', value: true, passed: true }],
    });
    const page = await evals.reader.listJudgeJobs(ctx.runId, { limit: 10 });
    expect(page.items.map((j) => j.id)).toContain(job.id);
    expect((await evals.reader.getJudgeBudget()).jobsUsed).toBe(before.jobsUsed + 1);
  });

  it('cancels a running job', async () => {
    hold = Promise.resolve();
    try {
      const { ids } = await evals.client.createJudgeJobs(ctx.runId, {
        idempotencyKey: evals.client.newIdempotencyKey(),
        jobs: [{ evaluationItemId: ctx.items[1]!, scorerVersionId: ctx.judge }],
      });
      const cancelled = await evals.client.cancelJudgeJob(ids[0]!, 'rubric changed');
      expect(cancelled).toMatchObject({ state: 'cancelled', cancelReason: 'rubric changed' });
      expect((await settled(evals.client, ids[0]!)).resultId).toBeNull();
      await expectApiError(evals.client.cancelJudgeJob(ids[0]!, 'again'), 409, 'conflict');
    } finally {
      hold = undefined;
    }
  });

  it('refuses bad inputs: other scorers, unknown IDs, repeats, a reused key with another body', async () => {
    await expectApiError(
      evals.client.createJudgeJobs(ctx.runId, {
        idempotencyKey: evals.client.newIdempotencyKey(),
        jobs: [{ evaluationItemId: ctx.items[1]!, scorerVersionId: ctx.exact }],
      }),
      422, // not a hosted judge: a rule beyond the request's JSON Schema
      'invalid_request',
    );
    await expectApiError(
      evals.client.createJudgeJobs(UNKNOWN_ID, {
        idempotencyKey: evals.client.newIdempotencyKey(),
        jobs: [{ evaluationItemId: ctx.items[1]!, scorerVersionId: ctx.judge }],
      }),
      404,
      'not_found',
    );
    await expectApiError(evals.client.getJudgeJob(UNKNOWN_ID), 404, 'not_found');
    await expectApiError(evals.client.listJudgeJobs(UNKNOWN_ID), 404, 'not_found');
    await expectApiError(evals.client.cancelJudgeJob(UNKNOWN_ID, 'x'), 404, 'not_found');
    await expectApiError(evals.client.cancelJudgeJob(UNKNOWN_ID, ''), 400, 'invalid_request');
    const idempotencyKey = evals.client.newIdempotencyKey();
    const created = await evals.client.createJudgeJobs(ctx.runId, {
      idempotencyKey,
      jobs: [{ evaluationItemId: ctx.items[1]!, scorerVersionId: ctx.judge }],
    });
    expect(
      await evals.client.createJudgeJobs(ctx.runId, {
        idempotencyKey,
        jobs: [{ evaluationItemId: ctx.items[1]!, scorerVersionId: ctx.judge }],
      }),
    ).toEqual(created);
    await expectApiError(
      evals.client.createJudgeJobs(ctx.runId, {
        idempotencyKey,
        jobs: [{ evaluationItemId: ctx.items[0]!, scorerVersionId: ctx.judge }],
      }),
      409,
      'idempotency_key_reused',
    );
    await expectApiError(
      evals.reader.createJudgeJobs(ctx.runId, {
        idempotencyKey: 'k',
        jobs: [{ evaluationItemId: ctx.items[1]!, scorerVersionId: ctx.judge }],
      }),
      403,
      'forbidden',
    );
    await expectApiError(evals.tracer.getJudgeBudget(), 403, 'forbidden');
  });
});
