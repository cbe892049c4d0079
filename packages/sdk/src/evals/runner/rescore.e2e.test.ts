/**
 * `rescore` end to end against the reference server: a run created over saved subjects is scored
 * with the local scorers; results already there are kept; reruns submit nothing; content can be
 * kept off the service; unknown runs are refused.
 */
import { describe, expect, it } from 'vitest';
import { SvcApiError } from '../../errors/svc-api-error.js';
import { UNKNOWN_ID, useEvalServer } from '../client/__fixtures__/eval-server.js';
import { answer, lengthScorer } from './__fixtures__/question-cases.js';
import {
  createExperiment,
  publishScorers,
  questionVersion,
  type ScorerVersionIds,
  useTemporaryDirectories,
} from './__fixtures__/runner-setup.js';
import { CONTENT_NOT_PERSISTED } from './local-scoring.js';
import { rescore } from './rescore.js';

const evals = useEvalServer();
const temporaryDirectory = useTemporaryDirectories();
const checkpoint = () => temporaryDirectory('rescore');

let scorers: ScorerVersionIds | undefined;

/** Subjects of `count` completed executions (case 1 errored, case 2 has no output). */
async function savedSubjects(count: number) {
  scorers ??= await publishScorers(evals.client);
  const { versionId } = await questionVersion(evals.client, count);
  const experiment = await createExperiment(evals.client, versionId, [scorers.exactMatch]);
  const subjectIds: string[] = [];
  for (const item of (await evals.client.listExperimentItems(experiment.id)).items) {
    const { n } = item.inputs as { n: number };
    const execution = await evals.client.startExecution(experiment.id, item.caseId, {
      idempotencyKey: evals.client.newIdempotencyKey(),
    });
    const completion = await evals.client.completeExecution(execution.id, {
      idempotencyKey: evals.client.newIdempotencyKey(),
      ...(n === 1
        ? { state: 'error', error: { type: 'TimeoutError' } }
        : n === 2
          ? { state: 'succeeded' }
          : { state: 'succeeded', output: answer(item.inputs) }),
      traceEvidence: 'omit',
      omissionReason: 'made by the test',
    });
    subjectIds.push(completion.subjectId);
  }
  return { scorers, subjectIds };
}

async function createRun(subjectIds: string[], scorerVersionIds: string[]) {
  const { id } = await evals.client.createEvaluationRun({
    idempotencyKey: evals.client.newIdempotencyKey(),
    name: 'Rescore test',
    subjectIds,
    scorerVersionIds,
  });
  return id;
}

describe('rescore', () => {
  it('scores every item of a run from its saved subject, deferring what cannot be scored here', async () => {
    const { scorers: ids, subjectIds } = await savedSubjects(4);
    const runId = await createRun(subjectIds, [ids.includes, ids.length, ids.manual]);
    const options = {
      client: evals.client,
      runId,
      checkpointDirectory: checkpoint(),
      persistResultContent: true,
      scorers: [lengthScorer],
      concurrency: 3,
    };
    const report = await rescore(options);
    expect(report).toMatchObject({ runId, subjectIds, deferredScorerVersionIds: [ids.manual] });
    expect(report.resultIds).toHaveLength(8);
    const results = (await evals.client.listResults(runId, { limit: 100 })).items;
    expect(results.map((r) => r.id).sort()).toEqual([...report.resultIds].sort());
    const items = (await evals.client.listEvaluationItems(runId)).items;
    const of = (index: number, version: string) =>
      results.find((r) => r.evaluationItemId === items[index]!.id && r.scorerVersionId === version);
    expect(of(0, ids.includes)).toMatchObject({
      status: 'scored',
      metrics: [{ name: 'includes', value: true }],
    });
    expect(of(1, ids.includes)?.status).toBe('skipped'); // the execution errored
    expect(of(2, ids.length)?.status).toBe('skipped'); // no output
    expect(of(3, ids.length)).toMatchObject({
      status: 'scored',
      sourceDigest: lengthScorer.definition.sourceDigest,
    });

    expect(await rescore(options)).toEqual(report);
    expect((await evals.client.listResults(runId, { limit: 100 })).items).toHaveLength(8);
  });

  it('keeps explanations off the service with persistResultContent: false', async () => {
    const { scorers: ids, subjectIds } = await savedSubjects(1);
    const runId = await createRun(subjectIds, [ids.exactMatch]);
    const report = await rescore({
      client: evals.client,
      runId,
      checkpointDirectory: checkpoint(),
      persistResultContent: false,
    });
    const result = await evals.client.getResult(report.resultIds[0]!);
    expect(result).toMatchObject({ status: 'scored', explanation: CONTENT_NOT_PERSISTED });
    expect(result).not.toHaveProperty('evidence');
  });

  it('defers local code whose scorer is not given, and submits nothing then', async () => {
    const { scorers: ids, subjectIds } = await savedSubjects(2);
    const runId = await createRun(subjectIds, [ids.length]);
    const report = await rescore({
      client: evals.client,
      runId,
      checkpointDirectory: checkpoint(),
      persistResultContent: true,
    });
    expect(report).toEqual({ runId, subjectIds, resultIds: [], deferredScorerVersionIds: [ids.length] });
  });

  it('rejects with SvcApiError for an unknown run, and keeps the checkpoint for that run only', async () => {
    const directory = checkpoint();
    const error = await rescore({
      client: evals.client,
      runId: UNKNOWN_ID,
      checkpointDirectory: directory,
      persistResultContent: true,
    }).catch((caught: unknown) => caught);
    expect(SvcApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 404 });
    const { scorers: ids, subjectIds } = await savedSubjects(1);
    const runId = await createRun(subjectIds, [ids.exactMatch]);
    await expect(
      rescore({ client: evals.client, runId, checkpointDirectory: directory, persistResultContent: true }),
    ).rejects.toThrow(new RegExp(`is dedicated to rescore of run ${UNKNOWN_ID}`));
  });

  it('needs a Read-and-write key to submit (SvcApiError 403), and a rerun with one resumes', async () => {
    const { scorers: ids, subjectIds } = await savedSubjects(1);
    const runId = await createRun(subjectIds, [ids.exactMatch]);
    const directory = checkpoint();
    const refused = await rescore({
      client: evals.reader,
      runId,
      checkpointDirectory: directory,
      persistResultContent: true,
    }).catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ name: 'SvcApiError', status: 403 });
    const report = await rescore({
      client: evals.client,
      runId,
      checkpointDirectory: directory,
      persistResultContent: true,
    });
    expect(report.resultIds).toHaveLength(1);
  });
});
