/**
 * Crash and resume: a runner in a child process (`__fixtures__/crash-child.ts`, the SDK from source)
 * is killed with SIGKILL at each step of a case's life, again and again over a 10-case experiment,
 * each run resuming from the checkpoint directory of the ones before; then a last run goes to the
 * end. On the server: every case ends with exactly one result per scorer version, except the cases
 * killed while their target may have run, which surface as UncertainExecutionError and keep their
 * execution started; no target is invoked twice. The same for `rescore`, killed while scoring and
 * after submitting.
 *
 * Node only (child processes of Node's type stripping): listed in `NODE_ONLY` of
 * `scripts/bun-sdk/vitest.config.mjs`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { childResult, runSourceChild } from '../../test-support/source-child.js';
import { useEvalServer } from '../client/__fixtures__/eval-server.js';
import type { CrashChildInput } from './__fixtures__/crash-child.js';
import { answer } from './__fixtures__/question-cases.js';
import {
  createExperiment,
  publishScorers,
  questionVersion,
  useTemporaryDirectories,
} from './__fixtures__/runner-setup.js';
import type { RunnerReport } from './runner-report.js';

const CHILD = fileURLToPath(new URL('./__fixtures__/crash-child.ts', import.meta.url));

type ChildEnd =
  | { killed: true }
  | {
      killed: false;
      report?: RunnerReport;
      error?: { name: string; message: string; caseId?: string; executionId?: string };
    };

/** Runs the child; resolves with how it ended. */
async function runChild(input: CrashChildInput): Promise<ChildEnd> {
  const end = await runSourceChild(CHILD, input);
  return end.signal === 'SIGKILL' ? { killed: true } : { killed: false, ...childResult<object>(end) };
}

const evals = useEvalServer();
const temporaryDirectory = useTemporaryDirectories();

/** Where each case is killed, in order (a case index and a step), over successive runs. */
const KILLS: ReadonlyArray<readonly [number, string]> = [
  [0, 'before-start'],
  [0, 'after-start'], // the start is replayed, then replaced: the target was never invoked
  [0, 'after-outcome'],
  [0, 'after-complete'],
  [0, 'during-scoring'],
  [0, 'after-submit'],
  [1, 'in-target'], // uncertain
  [2, 'after-start'],
  [2, 'after-start'], // a second replacement
  [2, 'after-complete'],
  [2, 'after-submit'],
  [3, 'after-target'], // uncertain
  [4, 'before-target'], // uncertain: the intent to invoke is saved
  [5, 'during-scoring'],
  [5, 'during-scoring'],
  [6, 'after-outcome'],
  [6, 'after-complete'],
  [7, 'after-submit'],
  [8, 'before-start'],
  [8, 'in-target'], // uncertain
  [9, 'after-complete'],
  [9, 'during-scoring'],
  [9, 'after-submit'],
];
const UNCERTAIN = [1, 3, 4, 8];
const NEVER_INVOKED = [4];

// Each test's timeout (600 s) is for a hang, not for a slow machine: every runner process starts
// Node on the SDK's sources (about 2 s of CPU apiece), 25 of them in the first test, 6 in the
// second, and a loaded machine takes minutes over them (the first test ran past 120 s under load).
describe('crash and resume', () => {
  it('resumes runExperiment after SIGKILL at every step of a case: one result per scorer, no target invoked twice, uncertain cases refused', async () => {
    const ids = await publishScorers(evals.client);
    const scorerVersionIds = [ids.exactMatch, ids.includes, ids.length];
    const { versionId, caseIds } = await questionVersion(evals.client, 10);
    const experiment = await createExperiment(evals.client, versionId, scorerVersionIds);
    const directory = temporaryDirectory('crash');
    const invocationLog = join(directory, 'invocations.log');
    writeFileSync(invocationLog, '');
    const input: CrashChildInput = {
      mode: 'experiment',
      origin: evals.server.origin,
      readWriteKey: evals.server.keys.readWrite,
      tracingKey: evals.server.keys.tracing,
      id: experiment.id,
      checkpointDirectory: join(directory, 'checkpoint'),
      invocationLog,
      concurrency: 1,
    };

    for (const [index, step] of KILLS) {
      const end = await runChild({ ...input, killAt: { step, id: caseIds[index]! } });
      expect(end, `killed at ${step} of case ${index}`).toEqual({ killed: true });
    }
    expect(KILLS.length).toBeGreaterThanOrEqual(20);

    const last = await runChild(input);
    expect(last.killed).toBe(false);
    const error = (last as Extract<ChildEnd, { killed: false }>).error;
    expect(error).toMatchObject({ name: 'UncertainExecutionError', caseId: caseIds[1] });
    // A resumed run names each case by its external key, then its ID.
    expect(error?.message).toMatch(new RegExp(`^Case "case-01" \\(${caseIds[1]}\\) may have completed`));
    for (const index of UNCERTAIN.slice(1)) {
      expect(error?.message).toContain(`"case-${String(index).padStart(2, '0')}" (${caseIds[index]})`);
    }

    const invocations = readFileSync(invocationLog, 'utf8').trim().split('\n');
    for (const [index, caseId] of caseIds.entries()) {
      const count = invocations.filter((id) => id === caseId).length;
      expect(count, `target invocations of case ${index}`).toBe(NEVER_INVOKED.includes(index) ? 0 : 1);
      const view = await evals.client.getExperimentCase(experiment.id, caseId);
      const latest = view.executions.at(-1)!;
      if (UNCERTAIN.includes(index)) {
        expect(latest.state, `case ${index}`).toBe('started');
        if (index === 1) expect(error?.executionId).toBe(latest.id);
        expect(view.results).toEqual([]);
        continue;
      }
      expect(latest, `case ${index}`).toMatchObject({ state: 'succeeded', output: answer({ n: index }) });
      expect(latest.traceSnapshotId).not.toBeNull();
      // Earlier executions were replaced before their target was invoked.
      for (const replaced of view.executions.slice(0, -1)) {
        expect(replaced).toMatchObject({ state: 'started', replacedByExecutionId: expect.any(String) });
      }
      expect(view.results.map((r) => r.scorerVersionId).sort(), `results of case ${index}`).toEqual(
        [...scorerVersionIds].sort(),
      );
      expect(view.results.every((r) => r.evaluationItemId === latest.evaluationItemId)).toBe(true);
    }
    expect((await evals.client.getExperimentCase(experiment.id, caseIds[0]!)).executions).toHaveLength(2);
    expect((await evals.client.getExperimentCase(experiment.id, caseIds[2]!)).executions).toHaveLength(3);
    const run = await evals.client.listResults(experiment.evaluationRunId, { limit: 100 });
    expect(run.items).toHaveLength((10 - UNCERTAIN.length) * scorerVersionIds.length);
    expect((await evals.client.getExperiment(experiment.id)).finishedAt).toBeNull();

    // Rerunning changes nothing and invokes nothing.
    const again = await runChild(input);
    expect(again).toMatchObject({
      killed: false,
      error: { name: 'UncertainExecutionError', caseId: caseIds[1] },
    });
    expect(readFileSync(invocationLog, 'utf8').trim().split('\n')).toEqual(invocations);
    expect((await evals.client.listResults(experiment.evaluationRunId, { limit: 100 })).items).toHaveLength(
      run.items.length,
    );
  }, 600_000);

  it('resumes rescore after SIGKILL while scoring and after submitting, submitting each result once', async () => {
    const ids = await publishScorers(evals.client);
    const { versionId } = await questionVersion(evals.client, 4);
    const experiment = await createExperiment(evals.client, versionId, [ids.exactMatch]);
    const items = await evals.client.listExperimentItems(experiment.id);
    const subjectIds: string[] = [];
    for (const item of items.items) {
      const execution = await evals.client.startExecution(experiment.id, item.caseId, {
        idempotencyKey: evals.client.newIdempotencyKey(),
      });
      const completion = await evals.client.completeExecution(execution.id, {
        idempotencyKey: evals.client.newIdempotencyKey(),
        state: 'succeeded',
        output: answer(item.inputs),
        traceEvidence: 'omit',
        omissionReason: 'scored from saved subjects',
      });
      subjectIds.push(completion.subjectId);
    }
    const scorerVersionIds = [ids.includes, ids.length, ids.manual];
    const { id: runId } = await evals.client.createEvaluationRun({
      idempotencyKey: evals.client.newIdempotencyKey(),
      name: 'Rescore',
      subjectIds,
      scorerVersionIds,
    });
    const runItems = (await evals.client.listEvaluationItems(runId)).items;
    // A result submitted by someone else before the rescore is kept, not submitted again.
    await evals.client.submitResults(runId, {
      idempotencyKey: evals.client.newIdempotencyKey(),
      results: [
        {
          evaluationItemId: runItems[3]!.id,
          scorerVersionId: ids.includes,
          status: 'skipped',
          explanation: 'Scored by hand.',
        },
      ],
    });
    const directory = temporaryDirectory('rescore');
    const input: CrashChildInput = {
      mode: 'rescore',
      origin: evals.server.origin,
      readWriteKey: evals.server.keys.readWrite,
      tracingKey: evals.server.keys.tracing,
      id: runId,
      checkpointDirectory: join(directory, 'checkpoint'),
      invocationLog: join(directory, 'unused.log'),
      concurrency: 1,
    };
    for (const [index, step] of [
      [0, 'during-scoring'],
      [0, 'after-submit'],
      [2, 'after-submit'],
      [3, 'during-scoring'],
    ] as const) {
      expect(await runChild({ ...input, killAt: { step, id: runItems[index]!.id } })).toEqual({
        killed: true,
      });
    }
    const last = await runChild(input);
    expect(last).toMatchObject({ killed: false, report: { runId, subjectIds } });
    const report = (last as { report: RunnerReport }).report;
    expect(report.deferredScorerVersionIds).toEqual([ids.manual]);
    expect(report.resultIds).toHaveLength(4 * 2 - 1);
    const results = (await evals.client.listResults(runId, { limit: 100 })).items;
    expect(results).toHaveLength(4 * 2);
    for (const item of runItems) {
      const pairs = results.filter((r) => r.evaluationItemId === item.id).map((r) => r.scorerVersionId);
      expect(pairs.sort()).toEqual([ids.includes, ids.length].sort());
    }
    expect(await runChild(input)).toEqual(last);
  }, 600_000);
});
