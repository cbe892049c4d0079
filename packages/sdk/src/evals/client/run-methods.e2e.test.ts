import { beforeAll, describe, expect, it } from 'vitest';
import { sourceDigest } from '../scorers/source-digest.js';
import {
  completedExperiment,
  exactMatchVersion,
  expectApiError,
  frozenVersion,
  UNKNOWN_ID,
  uniqueSlug,
  useEvalServer,
} from './__fixtures__/eval-server.js';

const evals = useEvalServer();
const SOURCE = 'export function score() { return { status: "skipped", explanation: "demo" }; }';

const ctx = {} as {
  runId: string;
  items: string[];
  subjects: string[];
  caseIds: string[];
  experimentId: string;
  exact: string;
  local: string;
};

beforeAll(async () => {
  const client = evals.client;
  const { versionId, caseIds } = await frozenVersion(client, [
    { externalKey: 'a', inputs: { q: 'a' }, expected: 'A' },
    { externalKey: 'b', inputs: { q: 'b' }, expected: null },
  ]);
  ctx.caseIds = caseIds;
  ctx.exact = await exactMatchVersion(client);
  const scorer = await client.createScorer({ name: 'Tone', slug: uniqueSlug('tone') });
  ctx.local = (
    await client.publishScorerVersion(scorer.id, {
      kind: 'local_code',
      language: 'typescript',
      entrypoint: 'tone.ts#score',
      sourceDigest: sourceDigest(SOURCE),
      metrics: [{ name: 'score', type: 'number', min: 0, max: 1 }],
    })
  ).id;
  const completed = await completedExperiment(
    client,
    { name: 'Runs', versionId, caseIds, scorerVersionIds: [ctx.exact, ctx.local] },
    'A',
  );
  Object.assign(ctx, completed);
});

describe('evaluation client: runs and results', () => {
  it('reads the experiment run, its items and subjects', async () => {
    expect(await evals.reader.getEvaluationRun(ctx.runId)).toMatchObject({
      experimentId: ctx.experimentId,
      itemCount: 2,
    });
    const items = await evals.reader.listEvaluationItems(ctx.runId);
    expect(items.items.map((item) => item.id)).toEqual(ctx.items);
    const subject = await evals.reader.getSubject(ctx.subjects[1]!);
    expect(subject).toMatchObject({
      executionState: 'succeeded',
      inputs: { q: 'b' },
      expected: null,
      output: 'A',
      caseId: ctx.caseIds[1],
    });
  });

  it('submits, lists and reads results; a replay returns the same IDs', async () => {
    const idempotencyKey = evals.client.newIdempotencyKey();
    const input = {
      idempotencyKey,
      results: [
        {
          evaluationItemId: ctx.items[0]!,
          scorerVersionId: ctx.exact,
          status: 'scored' as const,
          metrics: [{ name: 'exact_match', value: true, passed: true }],
          explanation: 'Output equals expected.',
        },
        {
          evaluationItemId: ctx.items[0]!,
          scorerVersionId: ctx.local,
          status: 'scored' as const,
          metrics: [{ name: 'score', value: 0.5 }],
          evidence: { words: 3 },
          sourceDigest: sourceDigest(SOURCE),
        },
      ],
    };
    const { ids } = await evals.client.submitResults(ctx.runId, input);
    expect(ids).toHaveLength(2);
    expect(await evals.client.submitResults(ctx.runId, input)).toEqual({ ids });
    const page = await evals.reader.listResults(ctx.runId, { limit: 100 });
    expect(page.items.map((result) => result.id)).toEqual(expect.arrayContaining(ids));
    expect(await evals.reader.getResult(ids[1]!)).toMatchObject({
      status: 'scored',
      evidence: { words: 3 },
      sourceDigest: sourceDigest(SOURCE),
      subjectId: ctx.subjects[0],
      judgeJobId: null,
    });
    const view = await evals.reader.getExperimentCase(ctx.experimentId, ctx.caseIds[0]!);
    expect(view.results.map((result) => result.id)).toEqual(ids);
    await expectApiError(
      evals.client.submitResults(ctx.runId, { ...input, results: input.results.slice(0, 1) }),
      409,
      'idempotency_key_reused',
    );
    await expectApiError(
      evals.client.submitResults(ctx.runId, {
        idempotencyKey: evals.client.newIdempotencyKey(),
        results: input.results.slice(0, 1),
      }),
      409,
      'conflict',
    );
  });

  it('refuses a metric mismatch, a wrong sourceDigest and unknown IDs', async () => {
    const base = {
      evaluationItemId: ctx.items[1]!,
      scorerVersionId: ctx.local,
      sourceDigest: sourceDigest(SOURCE),
    };
    const mismatch = await expectApiError(
      evals.client.submitResults(ctx.runId, {
        idempotencyKey: evals.client.newIdempotencyKey(),
        results: [
          { ...base, status: 'scored', metrics: [{ name: 'score', value: 2 }], explanation: 'too high' },
        ],
      }),
      422, // the pinned metric definitions: beyond the request's JSON Schema
      'invalid_request',
    );
    expect(mismatch.message).toContain('submitResults');
    await expectApiError(
      evals.client.submitResults(ctx.runId, {
        idempotencyKey: evals.client.newIdempotencyKey(),
        results: [{ ...base, status: 'scored', metrics: [{ name: 'other', value: 1 }], explanation: 'x' }],
      }),
      422,
      'invalid_request',
    );
    await expectApiError(
      evals.client.submitResults(ctx.runId, {
        idempotencyKey: evals.client.newIdempotencyKey(),
        results: [
          { ...base, sourceDigest: sourceDigest('changed source'), status: 'skipped', explanation: 'x' },
        ],
      }),
      409,
      'conflict',
    );
    await expectApiError(evals.client.getEvaluationRun(UNKNOWN_ID), 404, 'not_found');
    await expectApiError(evals.client.listEvaluationItems(UNKNOWN_ID), 404, 'not_found');
    await expect(evals.client.listEvaluationItems(ctx.runId, { limit: 1.5 })).rejects.toThrow(/page\.limit/);
    await expectApiError(evals.client.getSubject(UNKNOWN_ID), 404, 'not_found');
    await expectApiError(evals.client.getResult(UNKNOWN_ID), 404, 'not_found');
    await expectApiError(evals.client.listResults(UNKNOWN_ID), 404, 'not_found');
    await expectApiError(
      evals.client.submitResults(ctx.runId, {
        idempotencyKey: evals.client.newIdempotencyKey(),
        results: [{ ...base, evaluationItemId: UNKNOWN_ID, status: 'skipped', explanation: 'x' }],
      }),
      404,
      'not_found',
    );
  });

  it('creates a run over saved subjects (as rescoring does)', async () => {
    const { id } = await evals.client.createEvaluationRun({
      idempotencyKey: evals.client.newIdempotencyKey(),
      name: 'Rescore',
      subjectIds: ctx.subjects,
      scorerVersionIds: [ctx.exact],
    });
    expect(await evals.reader.getEvaluationRun(id)).toMatchObject({
      experimentId: null,
      itemCount: 2,
      scorerVersionIds: [ctx.exact],
    });
    const items = await evals.reader.listEvaluationItems(id, { limit: 1 });
    expect(items.items[0]!.subjectId).toBe(ctx.subjects[0]);
    await expectApiError(
      evals.client.createEvaluationRun({
        idempotencyKey: evals.client.newIdempotencyKey(),
        name: 'x',
        subjectIds: [UNKNOWN_ID],
        scorerVersionIds: [ctx.exact],
      }),
      404,
      'not_found',
    );
    await expectApiError(
      evals.reader.createEvaluationRun({
        idempotencyKey: 'k',
        name: 'x',
        subjectIds: ctx.subjects,
        scorerVersionIds: [ctx.exact],
      }),
      403,
      'forbidden',
    );
    await expect(evals.client.createEvaluationRun({ name: 'x' } as never)).rejects.toThrow(
      /input\.idempotencyKey/,
    );
  });

  it('refuses a submission over 1 MiB with 413', async () => {
    const results = Array.from({ length: 3 }, (_, index) => ({
      evaluationItemId: ctx.items[1]!,
      scorerVersionId: ctx.exact,
      status: 'skipped' as const,
      explanation: `${index}${'x'.repeat(400_000)}`,
    }));
    await expectApiError(
      evals.client.submitResults(ctx.runId, { idempotencyKey: evals.client.newIdempotencyKey(), results }),
      413,
      'payload_too_large',
    );
  });
});
