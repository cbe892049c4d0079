/**
 * `runExperiment`: runs every case of an experiment in this process, crash-safe through a
 * checkpoint directory, and scores each with the local scorers.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { UncertainExecutionError } from '../../errors/uncertain-execution-error.js';
import { type CaseError, firstCaseError } from './case-errors.js';
import { CheckpointStore } from './checkpoint-store.js';
import { flushBarrier } from './flush-barrier.js';
import { forEachConcurrently } from './for-each-concurrently.js';
import { listAllPages } from './list-all-pages.js';
import { readScoringPlan } from './local-scoring.js';
import { type CaseResult, type ExperimentRun, runCase } from './run-case.js';
import type { RunnerHooks } from './runner-hooks.js';
import { type RunExperimentOptions, validateRunExperimentOptions } from './runner-options.js';
import type { FinishRecord, RetryRecord } from './runner-records.js';
import type { RunnerReport } from './runner-report.js';
import { settleMutation } from './settle-mutation.js';
import { withTransientRetry } from './transient-retry.js';

/**
 * Runs every case of an experiment: each case runs inside a span of `svc`, starts an execution,
 * invokes `target(inputs, { config, item, span })`, completes the execution with the target's
 * outcome (its trace as evidence, with `traceEvidence: { mode: 'required' }`), scores it with the
 * local scorers and submits the results. Once every case has a completed execution, the
 * experiment is finished.
 *
 * Crash-safe: before each remote call the runner saves its intent (with the idempotency key) in
 * `checkpointDirectory`, and its outcome after. Rerun with the same options to resume: saved calls
 * are replayed with their keys, a result is never submitted twice, and a target that may have run
 * is never invoked again (its case rejects with {@link UncertainExecutionError}).
 *
 * `retryErrors: true` runs again, once, the cases that ended in error or may have completed, each
 * in a new attempt replacing its execution (a crash during the retry resumes it without retrying a
 * case twice); `finishWithErrors: false` leaves an experiment with errored cases open for that.
 *
 * The run goes on past a case's error; it then rejects with the first case's error (the message
 * lists the others): {@link UncertainExecutionError} for a case whose target may have run without
 * a saved outcome, `OutcomeSerializationError` for one whose target returned a value that is
 * not JSON (that execution is completed in state `error`). A failed call (`SvcApiError`, after
 * retrying transient failures with the same key) or checkpoint write stops the run: cases already
 * under way end their current step, and the run rejects with that error.
 *
 * @example
 * ```ts
 * import { createSvc } from '@svc-run/sdk';
 * import { createEvaluationClient, runExperiment } from '@svc-run/sdk/evals';
 *
 * const svc = createSvc({ apiKey: tracingKey, serviceName: 'support-bot', captureContent: true });
 * const client = createEvaluationClient({ apiKey: readWriteKey });
 * const report = await runExperiment({
 *   client, svc, experimentId,
 *   checkpointDirectory: `.svc-checkpoints/${experimentId}`,
 *   persistResultContent: true,
 *   traceEvidence: { mode: 'required' },
 *   concurrency: 4,
 *   target: async (inputs, { config }) => answer(inputs, config),
 * });
 * ```
 * @throws TypeError for invalid options (naming the option), a checkpoint directory of another
 *   run, or clients of different projects.
 */
export async function runExperiment(options: RunExperimentOptions): Promise<RunnerReport> {
  return runExperimentWithHooks(options, {});
}

/** {@link runExperiment} with test hooks. Not part of the public API. */
export async function runExperimentWithHooks(
  options: RunExperimentOptions,
  hooks: RunnerHooks,
): Promise<RunnerReport> {
  const resolved = validateRunExperimentOptions(options);
  const { client, svc, experimentId } = resolved;
  const [tracing, evaluation] = await Promise.all([svc.checkConnection(), client.checkConnection()]);
  if (tracing.id !== evaluation.id) {
    throw new TypeError(
      `svc and client must use keys of the same project (the traces are the executions' evidence); svc's key is of project ${tracing.slug}, client's of project ${evaluation.slug}`,
    );
  }
  const store = await CheckpointStore.open(resolved.checkpointDirectory, {
    runner: 'runExperiment',
    id: experimentId,
  });
  try {
    const experiment = await withTransientRetry(() => client.getExperiment(experimentId));
    const plan = await readScoringPlan(client, experiment.scorerVersionIds, resolved.scorers);
    const items = await listAllPages((page) => client.listExperimentItems(experimentId, page));
    const retry = resolved.retryErrors ? await retryRound(store) : undefined;
    const run: ExperimentRun = {
      options: resolved,
      store,
      experiment,
      plan,
      flushTraces: flushBarrier(() => svc.flush()),
      hooks,
      ...(retry === undefined ? {} : { retryRound: retry.round }),
    };
    const results: (CaseResult | undefined)[] = [];
    const caseErrors: { index: number; caseId: string; externalKey: string; error: CaseError }[] = [];
    let failure: { error: unknown } | undefined;
    await forEachConcurrently(
      items,
      resolved.concurrency,
      async (item, index) => {
        try {
          const result = await runCase(run, item);
          results[index] = result;
          if (result.error !== undefined)
            caseErrors.push({
              index,
              caseId: item.caseId,
              externalKey: item.externalKey,
              error: result.error,
            });
        } catch (error) {
          if (UncertainExecutionError.isInstance(error))
            caseErrors.push({ index, caseId: item.caseId, externalKey: item.externalKey, error });
          else failure ??= { error };
        }
      },
      () => failure !== undefined,
    );
    if (failure !== undefined) throw failure.error;
    if (retry !== undefined) await store.write('retry', { ...retry, done: true } satisfies RetryRecord);
    const errored = results.some((result) => result?.executionState === 'error');
    if (
      !caseErrors.some(({ error }) => UncertainExecutionError.isInstance(error)) &&
      (resolved.finishWithErrors || !errored)
    ) {
      await finish(run);
    }
    if (caseErrors.length > 0) throw firstCaseError(caseErrors.sort((a, b) => a.index - b.index));
    const done = results.filter((result): result is CaseResult => result !== undefined);
    return {
      runId: experiment.evaluationRunId,
      subjectIds: done.map((result) => result.subjectId),
      resultIds: done.flatMap((result) => result.resultIds),
      deferredScorerVersionIds: plan.deferredScorerVersionIds,
    };
  } finally {
    await store.close();
  }
}

/** The retry round under way, or a new one (saved) when the last one is done or there was none. */
async function retryRound(store: CheckpointStore): Promise<RetryRecord> {
  const saved = await store.read<RetryRecord>('retry');
  if (saved !== undefined && !saved.done) return saved;
  const record: RetryRecord = { round: randomUUID(), done: false };
  await store.write('retry', record);
  return record;
}

/** Finishes the experiment once (its intent saved first), unless it was finished already. */
async function finish(run: ExperimentRun): Promise<void> {
  const { store, experiment } = run;
  const saved = await store.read<FinishRecord>('finish');
  if (saved === undefined && experiment.finishedAt !== null) return;
  const record: FinishRecord = saved ?? { finish: { key: randomUUID(), body: {} } };
  const save = () => store.write('finish', record);
  if (saved === undefined) await save();
  await settleMutation(record.finish, save, (key) => run.options.client.finishExperiment(experiment.id, key));
}
