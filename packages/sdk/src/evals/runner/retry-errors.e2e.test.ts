/**
 * `runExperiment` with `retryErrors` and `finishWithErrors: false`, end to end against the
 * reference server: an experiment with errored cases stays open; a rerun with `retryErrors` runs
 * only those cases again, in new attempts replacing their executions, once per retry round; an
 * uncertain case (its target ran without a saved outcome) is retried too; a finished experiment
 * refuses the retry with a clear error.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createSvc, type SvcClient } from '../../client/svc-client.js';
import { SvcError } from '../../errors/svc-error.js';
import { UncertainExecutionError } from '../../errors/uncertain-execution-error.js';
import { useEvalServer } from '../client/__fixtures__/eval-server.js';
import { answer, lengthScorer } from './__fixtures__/question-cases.js';
import {
  createExperiment,
  publishScorers,
  questionVersion,
  useTemporaryDirectories,
} from './__fixtures__/runner-setup.js';
import { runExperiment, runExperimentWithHooks } from './run-experiment.js';
import type { RunExperimentOptions } from './runner-options.js';

const evals = useEvalServer();
const checkpoint = useTemporaryDirectories();
const clients: SvcClient[] = [];

afterAll(async () => {
  await Promise.allSettled(clients.map((svc) => svc.shutdown()));
});

/** A new experiment over `count` question cases, scored by exact match and the length scorer. */
async function experimentRun(count: number) {
  const ids = await publishScorers(evals.client);
  const { versionId, caseIds } = await questionVersion(evals.client, count);
  const experiment = await createExperiment(evals.client, versionId, [ids.exactMatch, ids.length]);
  const svc = createSvc({
    apiKey: evals.server.keys.tracing,
    baseUrl: evals.server.origin,
    serviceName: 'retry-errors',
    captureContent: true,
    timeoutMillis: 60_000,
  });
  clients.push(svc);
  const invocations: string[] = [];
  /** Case indexes whose target throws. */
  const failing = new Set<number>();
  const options: RunExperimentOptions = {
    client: evals.client,
    svc,
    experimentId: experiment.id,
    checkpointDirectory: checkpoint('retry'),
    persistResultContent: true,
    traceEvidence: { mode: 'required' },
    scorers: [lengthScorer],
    finishWithErrors: false,
    target: (inputs, { item }) => {
      invocations.push(item.caseId);
      if (failing.has((inputs as { n: number }).n)) throw new Error('the agent crashed');
      return answer(inputs);
    },
  };
  return { experiment, caseIds, invocations, failing, options };
}

async function executionsOf(experimentId: string, caseId: string) {
  return (await evals.client.getExperimentCase(experimentId, caseId)).executions;
}

describe('runExperiment retryErrors', () => {
  it('leaves an experiment with errored cases open, then reruns only those cases, once per round', async () => {
    const { experiment, caseIds, invocations, failing, options } = await experimentRun(3);
    failing.add(1);
    await runExperiment(options);
    expect(invocations).toEqual(caseIds);
    expect((await evals.client.getExperiment(experiment.id)).finishedAt).toBeNull();

    // A rerun without retryErrors invokes nothing (the errored case has its outcome).
    await runExperiment(options);
    expect(invocations).toHaveLength(3);

    // The retry fails again: one more invocation of case 1 only, and the experiment stays open.
    await runExperiment({ ...options, retryErrors: true });
    expect(invocations.slice(3)).toEqual([caseIds[1]]);
    expect((await evals.client.getExperiment(experiment.id)).finishedAt).toBeNull();

    // The next round succeeds: case 1's third execution replaces the second, the experiment finishes.
    failing.clear();
    const report = await runExperiment({ ...options, retryErrors: true });
    expect(invocations.slice(4)).toEqual([caseIds[1]]);
    const executions = await executionsOf(experiment.id, caseIds[1]!);
    expect(executions.map((execution) => execution.state)).toEqual(['error', 'error', 'succeeded']);
    expect(executions[2]!.previousExecutionId).toBe(executions[1]!.id);
    expect((await evals.client.getExperiment(experiment.id)).finishedAt).not.toBeNull();
    // The report lists each case's latest subject; the other cases kept their single execution.
    expect(report.subjectIds).toHaveLength(3);
    expect(report.subjectIds[1]).toBe(executions[2]!.subjectId);
    for (const index of [0, 2]) expect(await executionsOf(experiment.id, caseIds[index]!)).toHaveLength(1);
    // One result per scorer version for the new attempt's item.
    const results = (await evals.client.getExperimentCase(experiment.id, caseIds[1]!)).results.filter(
      (result) => result.evaluationItemId === executions[2]!.evaluationItemId,
    );
    expect(results).toHaveLength(2);

    // Nothing left to retry: another round invokes nothing.
    await runExperiment({ ...options, retryErrors: true });
    expect(invocations).toHaveLength(5);
  });

  it('resumes a round after a crash without retrying a case twice', async () => {
    const { experiment, caseIds, invocations, failing, options } = await experimentRun(3);
    failing.add(0);
    failing.add(2);
    await runExperiment(options);
    expect(invocations).toHaveLength(3);

    // The round stops (a failure of the runner) once case 0 was retried, before case 2.
    class Stop extends Error {}
    const stopped = await runExperimentWithHooks(
      { ...options, retryErrors: true },
      {
        step: (step, id) => {
          if (step === 'before-start' && id === caseIds[2]) throw new Stop('stopped');
        },
      },
    ).catch((error: unknown) => error);
    expect(stopped).toBeInstanceOf(Stop);
    expect(invocations.slice(3)).toEqual([caseIds[0]]);

    // The same round resumes: case 2 is retried, case 0 (retried in this round) is not.
    await runExperiment({ ...options, retryErrors: true });
    expect(invocations.slice(4)).toEqual([caseIds[2]]);
    for (const index of [0, 2]) expect(await executionsOf(experiment.id, caseIds[index]!)).toHaveLength(2);
  });

  it('retries a case whose target may have completed only with retryErrors', async () => {
    const { experiment, caseIds, invocations, options } = await experimentRun(1);
    class Stop extends Error {}
    await runExperimentWithHooks(options, {
      step: (step) => {
        if (step === 'after-target') throw new Stop('stopped');
      },
    }).catch((error: unknown) => error);
    expect(invocations).toEqual([caseIds[0]]);

    const refused = await runExperiment(options).catch((error: unknown) => error);
    expect(UncertainExecutionError.isInstance(refused)).toBe(true);
    expect(invocations).toHaveLength(1);

    await runExperiment({ ...options, retryErrors: true });
    expect(invocations).toEqual([caseIds[0], caseIds[0]]);
    const executions = await executionsOf(experiment.id, caseIds[0]!);
    expect(executions.map((execution) => execution.state)).toEqual(['started', 'succeeded']);
    expect((await evals.client.getExperiment(experiment.id)).finishedAt).not.toBeNull();
  });

  it('finishes an experiment with errored cases by default, and then refuses to retry them', async () => {
    const { experiment, invocations, failing, options } = await experimentRun(2);
    failing.add(1);
    const { finishWithErrors: _open, ...defaults } = options;
    await runExperiment(defaults);
    expect((await evals.client.getExperiment(experiment.id)).finishedAt).not.toBeNull();
    const refused = await runExperiment({ ...defaults, retryErrors: true }).catch((error: unknown) => error);
    expect(SvcError.isInstance(refused)).toBe(true);
    expect((refused as Error).message).toContain('its experiment is finished');
    expect(invocations).toHaveLength(2);
  });

  it.each([
    ['retryErrors', 'yes', 'retryErrors must be true or false'],
    ['finishWithErrors', 0, 'finishWithErrors must be true or false'],
  ])('refuses %s = %j', async (name, value, message) => {
    const { options, invocations } = await experimentRun(1);
    await expect(runExperiment({ ...options, [name]: value })).rejects.toThrow(message);
    expect(invocations).toEqual([]);
  });
});
