import { describe, expect, it } from 'vitest';
import { createSvc } from '../../client/svc-client.js';
import {
  exactMatchVersion,
  expectApiError,
  frozenVersion,
  UNKNOWN_ID,
  useEvalServer,
} from './__fixtures__/eval-server.js';

const evals = useEvalServer();
const CASES = [
  { externalKey: 'capital', inputs: { question: 'Capital of France?' }, expected: 'Paris' },
  { externalKey: 'open', inputs: { question: 'Say hi' } },
];

async function setup() {
  const { versionId, caseIds } = await frozenVersion(evals.client, CASES);
  const scorerVersionId = await exactMatchVersion(evals.client);
  const created = await evals.client.createExperiment({
    idempotencyKey: evals.client.newIdempotencyKey(),
    name: 'Baseline',
    datasetVersionId: versionId,
    scorerVersionIds: [scorerVersionId],
    config: { model: 'small' },
  });
  return { versionId, caseIds, scorerVersionId, ...created };
}

describe('evaluation client: experiments and executions', () => {
  it('runs a traced case: start, target span, flush, complete with trace evidence', async () => {
    const { id, evaluationRunId, caseIds, versionId } = await setup();
    expect(await evals.reader.getExperiment(id)).toMatchObject({
      id,
      evaluationRunId,
      datasetVersionId: versionId,
      config: { model: 'small' },
      caseCount: 2,
      finishedAt: null,
    });
    const svc = createSvc({
      apiKey: evals.server.keys.readWrite,
      baseUrl: evals.server.origin,
      serviceName: 'experiment-e2e',
      captureContent: true,
      timeoutMillis: 60_000,
    });
    try {
      const { traceId, output } = await svc.withSpan('case capital', async (span) => {
        span.setOutput('Paris');
        return { traceId: span.traceId, output: 'Paris' };
      });
      const execution = await evals.client.startExecution(id, caseIds[0]!, {
        idempotencyKey: evals.client.newIdempotencyKey(),
        traceExternalId: traceId,
      });
      expect(execution).toMatchObject({ attempt: 1, state: 'started', traceExternalId: traceId });
      await svc.flush();
      const { receipt } = await svc.verifyTrace(traceId, { timeoutMillis: 60_000 });
      const completion = await evals.client.completeExecution(execution.id, {
        idempotencyKey: evals.client.newIdempotencyKey(),
        state: 'succeeded',
        output,
        traceEvidence: 'required',
        expectedTraceRevision: receipt!.revision,
      });
      expect(completion.executionId).toBe(execution.id);
      expect(completion.traceSnapshotId).not.toBeNull();
      const read = await evals.reader.getExecution(execution.id);
      expect(read).toMatchObject({
        state: 'succeeded',
        output: 'Paris',
        traceEvidence: 'required',
        subjectId: completion.subjectId,
        evaluationItemId: completion.evaluationItemId,
      });
      const items = await evals.reader.listExperimentItems(id, { limit: 1 });
      expect(items.items[0]).toMatchObject({ caseId: caseIds[0], expected: 'Paris' });
      expect(items.items[0]!.latestExecution?.id).toBe(execution.id);
      const next = await evals.reader.listExperimentItems(id, { limit: 1, after: items.nextCursor! });
      expect(next.items[0]).toMatchObject({ caseId: caseIds[1], latestExecution: null });
      const view = await evals.reader.getExperimentCase(id, caseIds[0]!);
      expect(view.executions.map((e) => e.id)).toEqual([execution.id]);
    } finally {
      await svc.shutdown();
    }
  });

  it('replaces a still-started attempt only via previousExecutionId with allowUncertainRetry: true', async () => {
    const { id, caseIds } = await setup();
    const first = await evals.client.startExecution(id, caseIds[1]!, {
      idempotencyKey: evals.client.newIdempotencyKey(),
    });
    await expectApiError(
      evals.client.startExecution(id, caseIds[1]!, { idempotencyKey: evals.client.newIdempotencyKey() }),
      409,
      'conflict',
    );
    await expectApiError(
      evals.client.startExecution(id, caseIds[1]!, {
        idempotencyKey: evals.client.newIdempotencyKey(),
        previousExecutionId: first.id,
      }),
      409,
      'conflict',
    );
    const second = await evals.client.startExecution(id, caseIds[1]!, {
      idempotencyKey: evals.client.newIdempotencyKey(),
      previousExecutionId: first.id,
      allowUncertainRetry: true,
    });
    expect(second).toMatchObject({ attempt: 2, previousExecutionId: first.id });
    await expectApiError(
      evals.client.completeExecution(first.id, {
        idempotencyKey: evals.client.newIdempotencyKey(),
        state: 'succeeded',
      }),
      409,
      'conflict',
    );
    const done = await evals.client.completeExecution(second.id, {
      idempotencyKey: evals.client.newIdempotencyKey(),
      state: 'error',
      error: { type: 'TimeoutError' },
      traceEvidence: 'omit',
      omissionReason: 'the target was not traced',
    });
    expect(done.traceSnapshotId).toBeNull();
    expect((await evals.client.getExecution(second.id)).error).toEqual({ type: 'TimeoutError' });
  });

  it('returns the first completion for a reused key and body, and refuses another body or a second completion', async () => {
    const { id, caseIds } = await setup();
    const execution = await evals.client.startExecution(id, caseIds[0]!, {
      idempotencyKey: evals.client.newIdempotencyKey(),
    });
    const idempotencyKey = evals.client.newIdempotencyKey();
    const first = await evals.client.completeExecution(execution.id, {
      idempotencyKey,
      state: 'succeeded',
      output: null,
    });
    expect(
      await evals.client.completeExecution(execution.id, {
        idempotencyKey,
        state: 'succeeded',
        output: null,
      }),
    ).toEqual(first);
    await expectApiError(
      evals.client.completeExecution(execution.id, { idempotencyKey, state: 'succeeded', output: 'other' }),
      409,
      'idempotency_key_reused',
    );
    await expectApiError(
      evals.client.completeExecution(execution.id, {
        idempotencyKey: evals.client.newIdempotencyKey(),
        state: 'cancelled',
      }),
      409,
      'conflict',
    );
    expect((await evals.client.getExecution(execution.id)).output).toBeNull();
  });

  it('refuses bad inputs: an unfrozen version, unknown IDs, invalid completions', async () => {
    const { id, caseIds } = await setup();
    const dataset = await evals.client.createDataset({ name: 'Open', slug: `open-${Date.now()}` });
    const open = await evals.client.createDatasetVersion(dataset.id);
    await expectApiError(
      evals.client.createExperiment({
        idempotencyKey: evals.client.newIdempotencyKey(),
        name: 'x',
        datasetVersionId: open.id,
        scorerVersionIds: [],
      }),
      409,
      'conflict',
    );
    await expectApiError(evals.client.getExperiment(UNKNOWN_ID), 404, 'not_found');
    await expectApiError(evals.client.getExecution(UNKNOWN_ID), 404, 'not_found');
    await expectApiError(evals.client.listExperimentItems(UNKNOWN_ID), 404, 'not_found');
    await expectApiError(evals.client.getExperimentCase(id, UNKNOWN_ID), 404, 'not_found');
    await expectApiError(
      evals.client.startExecution(id, UNKNOWN_ID, { idempotencyKey: evals.client.newIdempotencyKey() }),
      404,
      'not_found',
    );
    const execution = await evals.client.startExecution(id, caseIds[0]!, {
      idempotencyKey: evals.client.newIdempotencyKey(),
    });
    await expectApiError(
      evals.client.completeExecution(execution.id, {
        idempotencyKey: evals.client.newIdempotencyKey(),
        state: 'error',
      }),
      422, // a rule between fields (error required with state error): beyond the JSON Schema
      'invalid_request',
    );
    await expectApiError(
      evals.client.completeExecution(execution.id, {
        idempotencyKey: evals.client.newIdempotencyKey(),
        state: 'succeeded',
        traceEvidence: 'required',
      }),
      409,
      'conflict',
    );
    await expect(
      evals.client.completeExecution(execution.id, { state: 'succeeded' } as never),
    ).rejects.toThrow(/^input\.idempotencyKey must be 1 to 255 visible ASCII characters/);
    await expect(evals.client.finishExperiment(id, '')).rejects.toThrow(/^idempotencyKey must be/);
  });

  it('finishes an experiment, which then refuses executions', async () => {
    const { id, caseIds } = await setup();
    const idempotencyKey = evals.client.newIdempotencyKey();
    const finished = await evals.client.finishExperiment(id, idempotencyKey);
    expect(finished.id).toBe(id);
    expect(await evals.client.finishExperiment(id, idempotencyKey)).toEqual(finished);
    await expectApiError(
      evals.client.finishExperiment(id, evals.client.newIdempotencyKey()),
      409,
      'conflict',
    );
    await expectApiError(
      evals.client.startExecution(id, caseIds[0]!, { idempotencyKey: evals.client.newIdempotencyKey() }),
      409,
      'conflict',
    );
    await expectApiError(
      evals.reader.finishExperiment(id, evals.client.newIdempotencyKey()),
      403,
      'forbidden',
    );
  });
});
