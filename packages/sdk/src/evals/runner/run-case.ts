/**
 * One case of `runExperiment`, crash-safe: start an execution inside the case's span, invoke the
 * target, flush the trace, complete the execution, score, submit. The intent of each remote call
 * (its idempotency key and body) is saved before the call and its result after; the intent to
 * invoke the target is saved before invoking it and the outcome once it settled. Resumed from its
 * record, a case replays unanswered calls with their saved keys, and never invokes the target again
 * once it may have been invoked.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { SpanHandle } from '../../client/span-options.js';
import { reportFailure } from '../../diagnostics/report-failure.js';
import { OutcomeSerializationError } from '../../errors/outcome-serialization-error.js';
import { SvcApiError } from '../../errors/svc-api-error.js';
import { SvcError } from '../../errors/svc-error.js';
import { SvcExportError } from '../../errors/svc-export-error.js';
import { UncertainExecutionError } from '../../errors/uncertain-execution-error.js';
import type { Experiment, ExperimentItem } from '../types/experiment-types.js';
import { caseName } from './case-errors.js';
import type { CheckpointStore } from './checkpoint-store.js';
import { type ScoringPlan, scoreItem } from './local-scoring.js';
import type { RunnerHooks, RunnerStep } from './runner-hooks.js';
import type { ResolvedRunExperimentOptions } from './runner-options.js';
import type { AttemptRecord, CaseRecord, SavedOutcome } from './runner-records.js';
import { settleMutation } from './settle-mutation.js';
import { submitSaved, unsubmitted } from './submit-saved.js';
import { targetItem } from './target-item.js';
import { completionBody, returnedOutcome, thrownOutcome, unserializableMessage } from './target-outcome.js';
import { withTransientRetry } from './transient-retry.js';

/** Span name of a case. */
export const CASE_SPAN_NAME = 'eval.case';

/** Completions retried after a flush when the service has not stored the case's trace yet. */
const EVIDENCE_RETRIES = 3;

/** What every case of one run shares. */
export interface ExperimentRun {
  options: ResolvedRunExperimentOptions;
  store: CheckpointStore;
  experiment: Experiment;
  plan: ScoringPlan;
  /** Flushes the tracing client, covering every span ended before the call. */
  flushTraces: () => Promise<void>;
  hooks: RunnerHooks;
  /** The retry round under way (`retryErrors`), if any. */
  retryRound?: string;
}

/** What a case ended with. */
export interface CaseResult {
  subjectId: string;
  resultIds: string[];
  /** The state the case's execution was completed in. */
  executionState: 'succeeded' | 'error';
  /** Set when the target returned a value that could not be saved (the case is complete otherwise). */
  error?: OutcomeSerializationError;
}

/** The name of a case's record in the checkpoint directory. */
export function caseRecordName(caseId: string): string {
  return `case-${caseId}`;
}

/**
 * Runs (or resumes) one case to its end.
 *
 * @throws {@link UncertainExecutionError} when the case's target may have run but no outcome was
 *   saved, or when the case has an execution this checkpoint did not start; other errors (a failed
 *   call, a failed write) as they are.
 */
export async function runCase(run: ExperimentRun, item: ExperimentItem): Promise<CaseResult> {
  const { store } = run;
  const name = caseRecordName(item.caseId);
  const record: CaseRecord = (await store.read<CaseRecord>(name)) ?? {
    caseId: item.caseId,
    attempts: [],
    submissions: [],
  };
  const save = () => store.write(name, record);
  const step = async (at: RunnerStep) => run.hooks.step?.(at, item.caseId);
  let attempt = record.attempts.at(-1);
  if (attempt === undefined && item.latestExecution !== null) {
    throw new UncertainExecutionError(
      `Case ${caseName(item.externalKey, item.caseId)} has an execution that this checkpoint directory did not start, which may have completed: the runner does not run it again. Resume with the checkpoint directory of the run that started it, or run the case in a new experiment.`,
      { caseId: item.caseId, executionId: item.latestExecution.id },
    );
  }
  if (attempt !== undefined) {
    // An unanswered start is replayed: the service returns the execution it made, or makes it now.
    await settleMutation(attempt.start, save, (key, body) =>
      run.options.client
        .startExecution(run.experiment.id, item.caseId, { idempotencyKey: key, ...body })
        .then((execution) => ({ executionId: execution.id })),
    );
  }
  if (attempt !== undefined && retries(run, attempt)) {
    if (run.experiment.finishedAt !== null) {
      throw new SvcError(
        `Case ${item.caseId} ended in error, but its experiment is finished: it accepts no new executions. Run experiments whose errored cases are to be retried with finishWithErrors: false.`,
      );
    }
    // A new attempt replaces the errored execution; its results are the new attempt's.
    record.submissions = [];
    attempt = await runAttempt(run, item, record, save, step, attempt, run.retryRound);
  } else if (attempt === undefined || attempt.targetInvoked !== true) {
    // The target was never invoked: a new attempt (replacing the earlier execution, if any).
    attempt = await runAttempt(run, item, record, save, step, attempt, attempt?.retryRound);
  } else if (attempt.outcome === undefined && !(await mayHaveRun(run, item, attempt))) {
    // The target says it never began its work (its own durable record): a new attempt.
    attempt = await runAttempt(run, item, record, save, step, attempt, attempt.retryRound);
  } else if (attempt.outcome === undefined) {
    const executionId = attempt.start.result?.executionId;
    throw new UncertainExecutionError(
      `Case ${caseName(item.externalKey, item.caseId)} may have completed: its target was invoked but no outcome was saved (the runner stopped while it ran). The runner does not invoke it again; its execution stays started.`,
      { caseId: item.caseId, ...(executionId === undefined ? {} : { executionId }) },
    );
  }
  const executionId = attempt.start.result!.executionId;
  const outcome = attempt.outcome!;
  const missing = unsubmitted(record.submissions, run.plan.local);
  // With a submission to make, the completion's result is saved with the submission's intent.
  const completion = await complete(run, attempt, executionId, missing.length > 0 ? undefined : save, step);
  const resultIds = await submitSaved({
    client: run.options.client,
    runId: run.experiment.evaluationRunId,
    submissions: record.submissions,
    save,
    missing,
    score: (versions) =>
      scoreItem(versions, subjectOf(item, outcome), completion.evaluationItemId, {
        scorers: run.options.scorers,
        schemaTimeoutMillis: run.options.schemaTimeoutMillis,
        persistResultContent: run.options.persistResultContent,
        afterScore: () => step('during-scoring'),
      }),
    afterSubmit: () => step('after-submit'),
  });
  const result: CaseResult = {
    subjectId: completion.subjectId,
    resultIds,
    executionState: outcome.kind === 'returned' ? 'succeeded' : 'error',
  };
  if (outcome.kind === 'unserializable') {
    result.error = new OutcomeSerializationError(
      `Case ${caseName(item.externalKey, item.caseId)}: ${unserializableMessage(outcome.problem)} Its execution was completed in state error.`,
      { executionId },
    );
  }
  return result;
}

/**
 * Whether the target of an attempt invoked without a saved outcome may have begun its work: true
 * unless the `mayHaveRun` option says it did not. An answer other than `false` counts as true.
 */
async function mayHaveRun(
  run: ExperimentRun,
  item: ExperimentItem,
  attempt: AttemptRecord,
): Promise<boolean> {
  const traceId = attempt.start.body.traceExternalId;
  if (run.options.mayHaveRun === undefined || traceId === undefined) return true;
  return (await run.options.mayHaveRun({ caseId: item.caseId, traceId })) !== false;
}

/**
 * Whether the retry round under way runs `attempt`'s case again: the attempt ended in error (its
 * target threw or returned a value that is not JSON) or may have completed (its target was invoked
 * without a saved outcome), and no attempt of this round made it.
 */
function retries(run: ExperimentRun, attempt: AttemptRecord): boolean {
  if (run.retryRound === undefined || attempt.retryRound === run.retryRound) return false;
  if (attempt.targetInvoked !== true) return false;
  return attempt.outcome === undefined || attempt.outcome.kind !== 'returned';
}

/** A new attempt inside a new span of the case, until its outcome and completion intent are saved. */
async function runAttempt(
  run: ExperimentRun,
  item: ExperimentItem,
  record: CaseRecord,
  save: () => Promise<void>,
  step: (at: RunnerStep) => Promise<void>,
  previous: AttemptRecord | undefined,
  retryRound: string | undefined,
): Promise<AttemptRecord> {
  const { client, svc, target, traceEvidence, persistResultContent } = run.options;
  await step('before-start');
  let attempt: AttemptRecord | undefined;
  let outcome: SavedOutcome | undefined;
  try {
    await svc.withSpan(
      CASE_SPAN_NAME,
      async (span: SpanHandle) => {
        const started: AttemptRecord['start'] = {
          key: randomUUID(),
          body: {
            traceExternalId: span.traceId,
            ...(previous === undefined
              ? {}
              : { previousExecutionId: previous.start.result!.executionId, allowUncertainRetry: true }),
          },
        };
        attempt = { start: started, ...(retryRound === undefined ? {} : { retryRound }) };
        record.attempts.push(attempt);
        await save();
        const execution = await withTransientRetry(() =>
          client.startExecution(run.experiment.id, item.caseId, {
            idempotencyKey: started.key,
            ...started.body,
          }),
        );
        await step('after-start');
        span.span.setAttribute('svc.eval.execution_id', execution.id);
        started.result = { executionId: execution.id };
        attempt.targetInvoked = true;
        await save(); // the start's result and the intent to invoke the target, in one write
        await step('before-target');
        let value: unknown;
        try {
          value = await target(item.inputs, { config: run.experiment.config, item: targetItem(item), span });
        } catch (thrown) {
          outcome = thrownOutcome(thrown, persistResultContent);
          await step('after-target');
          throw thrown; // recorded on the span
        }
        outcome = returnedOutcome(value, persistResultContent);
        await step('after-target');
        if (outcome.kind === 'returned' && 'output' in outcome) span.setOutput(outcome.output);
      },
      {
        input: item.inputs,
        attributes: {
          'svc.eval.experiment_id': run.experiment.id,
          'svc.eval.case_id': item.caseId,
          'svc.eval.case_key': item.externalKey,
        },
      },
    );
  } catch (error) {
    if (outcome?.kind !== 'threw') throw error; // not the target's error: the runner's own failure
  }
  const current = attempt!;
  if (traceEvidence.mode === 'required') {
    // A failed export shows at completion: the service then has no trace to snapshot.
    await run.flushTraces().catch(reportUnexpectedFlushFailure);
  }
  current.outcome = outcome!;
  current.complete = {
    key: randomUUID(),
    body: completionBody(outcome!, traceEvidence, persistResultContent),
  };
  await save(); // the outcome and the completion's intent, in one write
  await step('after-outcome');
  return current;
}

/**
 * Completes the attempt's execution with its saved intent. With trace evidence required, a
 * completion refused because the trace is not stored yet is retried after another flush.
 */
async function complete(
  run: ExperimentRun,
  attempt: AttemptRecord,
  executionId: string,
  save: (() => Promise<void>) | undefined,
  step: (at: RunnerStep) => Promise<void>,
) {
  const mutation = attempt.complete!;
  return settleMutation(
    mutation,
    save,
    async (key, body) => {
      for (let retry = 0; ; retry++) {
        try {
          return await run.options.client.completeExecution(executionId, { idempotencyKey: key, ...body });
        } catch (error) {
          const traceMissing =
            body.traceEvidence === 'required' && SvcApiError.isInstance(error) && error.status === 409;
          if (!traceMissing || retry >= EVIDENCE_RETRIES) throw error;
          await run.flushTraces().catch(reportUnexpectedFlushFailure);
        }
      }
    },
    () => step('after-complete'),
  );
}

/**
 * A flush of the case's trace that failed. An `SvcExportError` is expected and told already: its
 * issues are the transport's (`getIssues()`, `onExportIssue`), and the completion reports the
 * missing trace. Anything else is a defect, told on diag; the case goes on either way.
 */
function reportUnexpectedFlushFailure(error: unknown): void {
  if (!SvcExportError.isInstance(error)) reportFailure('error', 'flushing the trace of a case failed', error);
}

/** The case and its outcome, as scorers see them. */
function subjectOf(item: ExperimentItem, outcome: SavedOutcome) {
  const returned = outcome.kind === 'returned';
  return {
    inputs: item.inputs,
    hasExpected: 'expected' in item,
    expected: item.expected,
    metadata: item.metadata,
    hasOutput: returned && 'output' in outcome,
    output: returned ? outcome.output : undefined,
    executionState: returned ? ('succeeded' as const) : ('error' as const),
  };
}
