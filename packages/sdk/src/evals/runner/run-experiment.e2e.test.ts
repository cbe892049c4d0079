/**
 * `runExperiment` end to end against the reference server: executions, trace evidence, results,
 * deferred scorers, reruns of a checkpoint, target errors, outputs that are not JSON, content not
 * persisted, omitted evidence, foreign executions, and concurrency 16 against 1.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createSvc, type SvcClient } from '../../client/svc-client.js';
import { OutcomeSerializationError } from '../../errors/outcome-serialization-error.js';
import { SvcApiError } from '../../errors/svc-api-error.js';
import { UncertainExecutionError } from '../../errors/uncertain-execution-error.js';
import { useEvalServer } from '../client/__fixtures__/eval-server.js';
import type { EvaluationClient } from '../client/evaluation-client.js';
import type { EvaluationResult } from '../types/run-types.js';
import { answer, lengthScorer } from './__fixtures__/question-cases.js';
import {
  createExperiment,
  publishScorers,
  questionVersion,
  type ScorerVersionIds,
  useTemporaryDirectories,
} from './__fixtures__/runner-setup.js';
import { CONTENT_NOT_PERSISTED } from './local-scoring.js';
import { CASE_SPAN_NAME } from './run-case.js';
import { runExperiment } from './run-experiment.js';
import type { RunExperimentOptions } from './runner-options.js';

const evals = useEvalServer();
const checkpoint = useTemporaryDirectories();
const clients: SvcClient[] = [];

afterAll(async () => {
  await Promise.allSettled(clients.map((svc) => svc.shutdown()));
});

function tracingClient(captureContent = true): SvcClient {
  const svc = createSvc({
    apiKey: evals.server.keys.tracing,
    baseUrl: evals.server.origin,
    serviceName: 'runner-e2e',
    captureContent,
    timeoutMillis: 60_000,
  });
  clients.push(svc);
  return svc;
}

let scorers: ScorerVersionIds | undefined;
async function scorerVersions(): Promise<ScorerVersionIds> {
  scorers ??= await publishScorers(evals.client);
  return scorers;
}

/** Options of a run of a new experiment over `count` question cases. */
async function experimentRun(
  count: number,
  overrides: Partial<RunExperimentOptions> = {},
  pick: (ids: ScorerVersionIds) => string[] = (ids) => [ids.exactMatch, ids.includes, ids.length],
) {
  const { versionId, caseIds } = await questionVersion(evals.client, count);
  const experiment = await createExperiment(evals.client, versionId, pick(await scorerVersions()));
  const invocations: string[] = [];
  const options: RunExperimentOptions = {
    client: evals.client,
    svc: tracingClient(),
    experimentId: experiment.id,
    checkpointDirectory: checkpoint('run'),
    persistResultContent: true,
    traceEvidence: { mode: 'required' },
    scorers: [lengthScorer],
    target: (inputs, { item }) => {
      invocations.push(item.caseId);
      return answer(inputs);
    },
    ...overrides,
  };
  return { experiment, caseIds, invocations, options };
}

/** The results of a case's latest execution, by scorer version ID. */
async function resultsOf(experimentId: string, caseId: string) {
  const view = await evals.client.getExperimentCase(experimentId, caseId);
  return { view, byVersion: new Map(view.results.map((r) => [r.scorerVersionId, r])) };
}

function scoreOf(result: EvaluationResult | undefined) {
  if (result === undefined) return undefined;
  const { status, metrics, explanation, error, evidence } = result as unknown as Partial<
    Record<string, unknown>
  >;
  return { status, metrics, explanation, error, evidence };
}

describe('runExperiment', () => {
  it('runs every case in a span, completes it with its trace as evidence, scores it and finishes the experiment', async () => {
    const ids = await scorerVersions();
    const seen: { traceId: string; config: unknown; externalKey: string }[] = [];
    const { experiment, caseIds, invocations, options } = await experimentRun(
      4,
      {
        target: (inputs, { config, item, span }) => {
          seen.push({ traceId: span.traceId, config, externalKey: item.externalKey });
          invocations.push(item.caseId);
          return answer(inputs);
        },
      },
      (v) => [v.exactMatch, v.includes, v.length, v.manual],
    );
    const report = await runExperiment(options);
    expect(invocations).toEqual(caseIds);
    expect(seen.map((s) => s.config)).toEqual(Array(4).fill({ model: 'tiny' }));
    expect(report.runId).toBe(experiment.evaluationRunId);
    expect(report.subjectIds).toHaveLength(4);
    expect(report.resultIds).toHaveLength(12);
    expect(report.deferredScorerVersionIds).toEqual([ids.manual]);
    expect((await evals.client.getExperiment(experiment.id)).finishedAt).not.toBeNull();

    for (const [n, caseId] of caseIds.entries()) {
      const { view, byVersion } = await resultsOf(experiment.id, caseId);
      expect(view.executions).toHaveLength(1);
      const [execution] = view.executions;
      expect(execution).toMatchObject({
        state: 'succeeded',
        output: answer({ n }),
        traceExternalId: seen[n]!.traceId,
        traceEvidence: 'required',
        subjectId: report.subjectIds[n],
      });
      expect(execution!.traceSnapshotId).not.toBeNull();
      const spans = evals.server.traceStore.listSpans(seen[n]!.traceId);
      expect(spans.map((span) => span.name)).toEqual([CASE_SPAN_NAME]);
      const attributes = Object.fromEntries(
        spans[0]!.attributes.map((a) => [a.key, Object.values(a.value)[0]]),
      );
      expect(attributes).toMatchObject({
        'svc.eval.experiment_id': experiment.id,
        'svc.eval.case_id': caseId,
        'svc.eval.case_key': seen[n]!.externalKey,
        'svc.eval.execution_id': execution!.id,
      });
      const right = n % 3 !== 2;
      expect(byVersion.get(ids.exactMatch)).toMatchObject({
        status: 'scored',
        metrics: [{ name: 'exact_match', value: right, passed: right }],
      });
      expect(byVersion.get(ids.includes)).toMatchObject({
        status: 'scored',
        metrics: [{ name: 'includes', value: right, passed: right }],
      });
      expect(byVersion.get(ids.length)).toMatchObject({
        status: 'scored',
        sourceDigest: lengthScorer.definition.sourceDigest,
        metrics: [
          { name: 'short', value: true, passed: true },
          { name: 'length', value: answer({ n }).length },
        ],
      });
      expect(byVersion.has(ids.manual)).toBe(false);
    }
    const listed = await evals.client.listResults(report.runId, { limit: 100 });
    expect(listed.items.map((r) => r.id).sort()).toEqual([...report.resultIds].sort());
  });

  it('reruns a finished checkpoint without invoking a target or calling a mutation again', async () => {
    const { options, invocations } = await experimentRun(3);
    const first = await runExperiment(options);
    expect(invocations).toHaveLength(3);
    const again = await runExperiment(options);
    expect(again).toEqual(first);
    expect(invocations).toHaveLength(3);
    const results = await evals.client.listResults(first.runId, { limit: 100 });
    expect(results.items).toHaveLength(9);
  });

  it('retries a call whose answer was lost with its saved key: the service applies it once', async () => {
    const lost = new Set(['startExecution', 'completeExecution', 'submitResults']);
    const keys: Record<string, string[]> = { startExecution: [], completeExecution: [], submitResults: [] };
    const losing =
      (name: 'startExecution' | 'completeExecution' | 'submitResults') =>
      async (...args: unknown[]) => {
        const key = (args.at(-1) as { idempotencyKey: string }).idempotencyKey;
        keys[name]!.push(key);
        const answer = await (evals.client[name] as (...a: unknown[]) => Promise<unknown>)(...args);
        if (lost.delete(name)) throw new SvcApiError(`${name}: no answer (connection reset)`);
        return answer;
      };
    const client: EvaluationClient = {
      ...evals.client,
      startExecution: losing('startExecution') as EvaluationClient['startExecution'],
      completeExecution: losing('completeExecution') as EvaluationClient['completeExecution'],
      submitResults: losing('submitResults') as EvaluationClient['submitResults'],
    };
    const { experiment, caseIds, invocations, options } = await experimentRun(1, { client });
    const report = await runExperiment(options);
    expect(lost.size).toBe(0);
    for (const name of Object.keys(keys)) {
      expect(keys[name], name).toHaveLength(2);
      expect(keys[name]![1], name).toBe(keys[name]![0]);
    }
    expect(invocations).toEqual(caseIds);
    const { view } = await resultsOf(experiment.id, caseIds[0]!);
    expect(view.executions).toHaveLength(1);
    expect(view.results).toHaveLength(3);
    expect(report.resultIds.sort()).toEqual(view.results.map((r) => r.id).sort());
  });

  it('completes the execution of a target that throws in state error, and the built-ins skip it', async () => {
    const ids = await scorerVersions();
    const { experiment, caseIds, options } = await experimentRun(2, {
      target: (inputs) => {
        if ((inputs as { n: number }).n === 1) throw new RangeError('the model refused');
        return answer(inputs);
      },
    });
    const report = await runExperiment(options);
    expect(report.resultIds).toHaveLength(6);
    const { view, byVersion } = await resultsOf(experiment.id, caseIds[1]!);
    expect(view.executions[0]).toMatchObject({
      state: 'error',
      error: { type: 'RangeError', message: 'the model refused' },
    });
    expect(view.executions[0]).not.toHaveProperty('output');
    expect(view.executions[0]!.traceSnapshotId).not.toBeNull();
    expect(byVersion.get(ids.exactMatch)?.status).toBe('skipped');
    expect(byVersion.get(ids.length)?.status).toBe('skipped');
    const stored = evals.server.traceStore.listSpans(view.executions[0]!.traceExternalId!);
    expect(stored[0]?.statusCode).toBe(2); // the span recorded the target's error
  });

  it('completes a case whose target returns a value that is not JSON in state error, rejects with OutcomeSerializationError, and never invokes it again', async () => {
    const { experiment, caseIds, invocations, options } = await experimentRun(3, {
      target: (inputs, { item }) => {
        invocations.push(item.caseId);
        const { n } = inputs as { n: number };
        return n === 1 ? { total: 10n } : answer(inputs);
      },
    });
    const error = await runExperiment(options).catch((caught: unknown) => caught);
    expect(OutcomeSerializationError.isInstance(error)).toBe(true);
    const { view } = await resultsOf(experiment.id, caseIds[1]!);
    expect((error as OutcomeSerializationError).executionId).toBe(view.executions[0]!.id);
    expect((error as Error).message).toContain('a bigint');
    expect(view.executions[0]).toMatchObject({
      state: 'error',
      error: { type: 'OutcomeSerializationError' },
    });
    expect(view.results.map((r) => r.status)).toEqual(['skipped', 'skipped', 'skipped']);
    expect(invocations).toEqual(caseIds);
    // Every execution is complete: the experiment is finished; a rerun reports the same error.
    expect((await evals.client.getExperiment(experiment.id)).finishedAt).not.toBeNull();
    const again = await runExperiment(options).catch((caught: unknown) => caught);
    expect(OutcomeSerializationError.isInstance(again)).toBe(true);
    expect(invocations).toEqual(caseIds);
  });

  it('keeps outputs, error messages and explanations off the service with persistResultContent: false', async () => {
    const ids = await scorerVersions();
    const { experiment, caseIds, options } = await experimentRun(2, {
      persistResultContent: false,
      target: (inputs) => {
        if ((inputs as { n: number }).n === 1) throw new Error('secret details');
        return answer(inputs);
      },
    });
    await runExperiment(options);
    const first = await resultsOf(experiment.id, caseIds[0]!);
    expect(first.view.executions[0]).not.toHaveProperty('output');
    expect(first.view.executions[0]!.state).toBe('succeeded');
    // Scored on the real output all the same.
    expect(first.byVersion.get(ids.exactMatch)).toMatchObject({
      status: 'scored',
      metrics: [{ name: 'exact_match', value: true, passed: true }],
      explanation: CONTENT_NOT_PERSISTED,
    });
    expect(first.byVersion.get(ids.exactMatch)).not.toHaveProperty('evidence');
    const second = await resultsOf(experiment.id, caseIds[1]!);
    expect(second.view.executions[0]!.error).toEqual({ type: 'Error' });
    expect(second.byVersion.get(ids.length)).toMatchObject({
      status: 'skipped',
      explanation: CONTENT_NOT_PERSISTED,
    });
  });

  it('completes without a snapshot with traceEvidence omit, saving the reason', async () => {
    const { experiment, caseIds, options } = await experimentRun(1, {
      traceEvidence: { mode: 'omit', reason: 'tracing is off in this environment' },
    });
    await runExperiment(options);
    const { view } = await resultsOf(experiment.id, caseIds[0]!);
    expect(view.executions[0]).toMatchObject({
      state: 'succeeded',
      traceEvidence: 'omit',
      omissionReason: 'tracing is off in this environment',
      traceSnapshotId: null,
    });
  });

  it('refuses a case with an execution it did not start (UncertainExecutionError), runs the others, and leaves the experiment open', async () => {
    const { experiment, caseIds, invocations, options } = await experimentRun(3);
    const foreign = await evals.client.startExecution(experiment.id, caseIds[1]!, {
      idempotencyKey: evals.client.newIdempotencyKey(),
    });
    const error = await runExperiment(options).catch((caught: unknown) => caught);
    expect(UncertainExecutionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ caseId: caseIds[1], executionId: foreign.id });
    // The message names the case as the user wrote it (its external key), then its ID.
    expect((error as Error).message).toMatch(
      new RegExp(
        `^Case "case-01" \\(${caseIds[1]}\\) has an execution that this checkpoint directory did not start`,
      ),
    );
    expect(invocations).toEqual([caseIds[0], caseIds[2]]);
    expect((await evals.client.getExperiment(experiment.id)).finishedAt).toBeNull();
    expect((await evals.client.getExecution(foreign.id)).state).toBe('started');
  });

  it('refuses a checkpoint directory of another experiment', async () => {
    const first = await experimentRun(1);
    await runExperiment(first.options);
    const second = await experimentRun(1, { checkpointDirectory: first.options.checkpointDirectory });
    await expect(runExperiment(second.options)).rejects.toThrow(
      new RegExp(`checkpointDirectory .* is dedicated to runExperiment of experiment ${first.experiment.id}`),
    );
    expect(second.invocations).toEqual([]);
  });

  it('gives the same executions and results with concurrency 16 as with concurrency 1', async () => {
    const ids = await scorerVersions();
    const { versionId, caseIds } = await questionVersion(evals.client, 24);
    const pinned = [ids.exactMatch, ids.includes, ids.length];
    const runWith = async (concurrency: number) => {
      const experiment = await createExperiment(evals.client, versionId, pinned);
      // With 16 at once, the first 16 targets wait until all 16 run: the pool must start them together.
      let running = 0;
      let mostAtOnce = 0;
      let openGate: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => {
        openGate = resolve;
      });
      const report = await runExperiment({
        client: evals.client,
        svc: tracingClient(),
        experimentId: experiment.id,
        checkpointDirectory: checkpoint(`c${concurrency}`),
        persistResultContent: true,
        traceEvidence: { mode: 'required' },
        scorers: [lengthScorer],
        concurrency,
        target: async (inputs) => {
          running += 1;
          mostAtOnce = Math.max(mostAtOnce, running);
          if (running === concurrency) openGate();
          await gate;
          running -= 1;
          return answer(inputs);
        },
      });
      const cases = [];
      for (const caseId of caseIds) {
        const { view, byVersion } = await resultsOf(experiment.id, caseId);
        cases.push({
          executions: view.executions.map((e) => ({
            state: e.state,
            output: e.output,
            snapshot: e.traceSnapshotId !== null,
          })),
          results: pinned.map((id) => scoreOf(byVersion.get(id))),
        });
      }
      return { report, cases, mostAtOnce };
    };
    const one = await runWith(1);
    const sixteen = await runWith(16);
    expect(one.mostAtOnce).toBe(1);
    expect(sixteen.mostAtOnce).toBe(16);
    expect(sixteen.cases).toEqual(one.cases);
    expect(
      one.cases.every((c) => c.executions.length === 1 && c.results.every((r) => r?.status === 'scored')),
    ).toBe(true);
    expect(sixteen.report.resultIds).toHaveLength(24 * 3);
    expect(sixteen.report.subjectIds).toHaveLength(24);
  });
});
