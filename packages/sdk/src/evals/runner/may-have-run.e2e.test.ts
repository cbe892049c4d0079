/**
 * `runExperiment`'s `mayHaveRun`, end to end against the reference server: a case whose target was
 * invoked without a saved outcome (the runner stopped there) runs again in a new attempt when the
 * target says it never began its work, and stays uncertain otherwise; the target is never invoked
 * twice for a case whose work may have begun.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createSvc, type SvcClient } from '../../client/svc-client.js';
import { UncertainExecutionError } from '../../errors/uncertain-execution-error.js';
import { useEvalServer } from '../client/__fixtures__/eval-server.js';
import { answer } from './__fixtures__/question-cases.js';
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

/** A one-case experiment whose first run stops with the intent to invoke the target saved. */
async function stoppedBeforeTarget() {
  const ids = await publishScorers(evals.client);
  const { versionId, caseIds } = await questionVersion(evals.client, 1);
  const experiment = await createExperiment(evals.client, versionId, [ids.exactMatch]);
  const svc = createSvc({
    apiKey: evals.server.keys.tracing,
    baseUrl: evals.server.origin,
    serviceName: 'may-have-run',
    captureContent: true,
    timeoutMillis: 60_000,
  });
  clients.push(svc);
  const invocations: string[] = [];
  const options: RunExperimentOptions = {
    client: evals.client,
    svc,
    experimentId: experiment.id,
    checkpointDirectory: checkpoint('may-have-run'),
    persistResultContent: true,
    traceEvidence: { mode: 'required' },
    target: (inputs, { item }) => {
      invocations.push(item.caseId);
      return answer(inputs);
    },
  };
  class Stop extends Error {}
  const stopped = await runExperimentWithHooks(options, {
    step: (step) => {
      if (step === 'before-target') throw new Stop('stopped where a crash would');
    },
  }).catch((error: unknown) => error);
  expect(stopped).toBeInstanceOf(Stop);
  expect(invocations).toEqual([]);
  const [first] = (await evals.client.getExperimentCase(experiment.id, caseIds[0]!)).executions;
  expect(first?.state).toBe('started');
  return { experiment, caseId: caseIds[0]!, first: first!, invocations, options };
}

describe('runExperiment mayHaveRun', () => {
  it('runs the case again in a new attempt when the target never began its work', async () => {
    const { experiment, caseId, first, invocations, options } = await stoppedBeforeTarget();
    const asked: { caseId: string; traceId: string }[] = [];
    await runExperiment({
      ...options,
      mayHaveRun: (attempt) => {
        asked.push(attempt);
        return false;
      },
    });
    expect(asked).toEqual([{ caseId, traceId: first.traceExternalId }]);
    expect(invocations).toEqual([caseId]);
    const executions = (await evals.client.getExperimentCase(experiment.id, caseId)).executions;
    expect(executions.map((execution) => execution.state)).toEqual(['started', 'succeeded']);
    expect(executions[1]?.previousExecutionId).toBe(first.id);
    expect((await evals.client.getExperiment(experiment.id)).finishedAt).not.toBeNull();
  });

  it('keeps the case uncertain when the target may have begun, or without the option', async () => {
    const { experiment, caseId, invocations, options } = await stoppedBeforeTarget();
    for (const given of [{ mayHaveRun: async () => true }, {}]) {
      const refused = await runExperiment({ ...options, ...given }).catch((error: unknown) => error);
      expect(UncertainExecutionError.isInstance(refused)).toBe(true);
      expect(refused).toMatchObject({ caseId });
    }
    expect(invocations).toEqual([]);
    const executions = (await evals.client.getExperimentCase(experiment.id, caseId)).executions;
    expect(executions.map((execution) => execution.state)).toEqual(['started']);
  });
});
