/**
 * The outcome of each case of an experiment, as the experiment page shows it, from what the
 * registry holds: PASS, FAIL (a metric with `passed: false`), ERROR (the execution ended in error
 * or was cancelled, a scorer or hosted judge failed), PENDING (checks pending: a scorer version has
 * no result yet), and, for a run still under way or stopped, STARTED (an execution without an
 * outcome: running, or its runner stopped while it ran) and NOT RUN (no execution). The same
 * reading as `svc eval`'s report, which calls the last two errored once its run has ended.
 * @module
 */
import type { Execution, ExperimentItem } from '../../evals/experiments/experiment-store.js';
import type { JudgeJob } from '../../evals/judge/judge-store.js';
import type { EvaluationResult } from '../../evals/runs/result-store.js';

/** A case's state on the page. */
export type CaseState = 'PASS' | 'FAIL' | 'ERROR' | 'PENDING' | 'STARTED' | 'NOT RUN';

/** A metric a scorer returned. */
export interface CaseMetric {
  name: string;
  value: boolean | number | string;
  passed?: boolean;
}

/** One scorer version's verdict on a case. */
export interface CaseScore {
  scorerVersionId: string;
  /** `pending`: no result yet (a judge job under way or not requested, a manual scorer). */
  status: 'scored' | 'error' | 'skipped' | 'pending';
  metrics: CaseMetric[];
  explanation?: string;
  error?: { type: string; message?: string };
  /** The hosted judge job of a pending or failed `llm_judge` score, when there is one. */
  judgeJob?: { id: string; state: JudgeJob['state'] };
}

/** The outcome of one case. */
export interface CaseOutcome {
  caseId: string;
  externalKey: string;
  state: CaseState;
  execution: Execution | null;
  scores: CaseScore[];
  /** Why the case errored (the execution's or a scorer's error). */
  error?: { type: string; message?: string };
}

/** What the outcomes are read from. */
export interface OutcomeSources {
  items: readonly ExperimentItem[];
  /** The results of the items' latest executions. */
  results: readonly EvaluationResult[];
  /** The experiment's scorer versions, in its order. */
  scorerVersionIds: readonly string[];
  /**
   * The scorer versions that grade the case of `externalKey`, when not every one of the
   * experiment's does (a scenario run: each case has its own check and judge versions); the others
   * are no check of that case, pending or not.
   */
  scorerVersionsOf?: (externalKey: string) => readonly string[] | undefined;
  /** The judge jobs of the experiment's run. */
  judgeJobs: readonly JudgeJob[];
}

function scoreOf(result: EvaluationResult): CaseScore {
  const score: CaseScore = {
    scorerVersionId: result.scorerVersionId,
    status: result.status,
    metrics: (result.metrics ?? []).map((metric) => ({ ...metric }) as CaseMetric),
  };
  if (result.explanation !== undefined) score.explanation = result.explanation;
  if (result.error !== undefined && result.error !== null) score.error = { ...result.error };
  return score;
}

function pendingOrJudgeError(scorerVersionId: string, job: JudgeJob | undefined): CaseScore {
  const score: CaseScore = { scorerVersionId, status: 'pending', metrics: [] };
  if (job === undefined) return score;
  score.judgeJob = { id: job.id, state: job.state };
  if (job.state === 'error' || job.state === 'cancelled') {
    score.status = 'error';
    score.error =
      job.state === 'cancelled'
        ? { type: 'JudgeJobCancelled', ...(job.cancelReason === null ? {} : { message: job.cancelReason }) }
        : {
            type: job.error?.type ?? 'JudgeJobError',
            ...(job.error?.message ? { message: job.error.message } : {}),
          };
  }
  return score;
}

/** The outcome of every case of `sources.items`, in their order. */
export function caseOutcomes(sources: OutcomeSources): CaseOutcome[] {
  const results = new Map(
    sources.results.map((result) => [`${result.evaluationItemId} ${result.scorerVersionId}`, result]),
  );
  // The latest job of each pair (a cancelled job may have been requested again).
  const jobs = new Map(
    sources.judgeJobs.map((job) => [`${job.evaluationItemId} ${job.scorerVersionId}`, job]),
  );
  return sources.items.map((item) => {
    const execution = item.latestExecution;
    const outcome: CaseOutcome = {
      caseId: item.caseId,
      externalKey: item.externalKey,
      state: 'NOT RUN',
      execution,
      scores: [],
    };
    if (execution === null) return outcome;
    if (execution.state === 'started') {
      outcome.state = 'STARTED';
      return outcome;
    }
    if (execution.state !== 'succeeded') {
      outcome.state = 'ERROR';
      outcome.error = execution.error ?? { type: execution.state === 'cancelled' ? 'Cancelled' : 'Error' };
      return outcome;
    }
    const itemId = execution.evaluationItemId ?? '';
    const versionIds = sources.scorerVersionsOf?.(item.externalKey) ?? sources.scorerVersionIds;
    for (const versionId of versionIds) {
      const key = `${itemId} ${versionId}`;
      const result = results.get(key);
      outcome.scores.push(
        result === undefined ? pendingOrJudgeError(versionId, jobs.get(key)) : scoreOf(result),
      );
    }
    const failedScorer = outcome.scores.find((score) => score.status === 'error');
    if (failedScorer !== undefined) {
      outcome.state = 'ERROR';
      outcome.error = failedScorer.error ?? { type: 'ScorerError' };
    } else if (outcome.scores.some((score) => score.metrics.some((metric) => metric.passed === false))) {
      outcome.state = 'FAIL';
    } else if (outcome.scores.some((score) => score.status === 'pending')) {
      outcome.state = 'PENDING';
    } else {
      outcome.state = 'PASS';
    }
    return outcome;
  });
}

/** Counts of cases by state. */
export type CaseTotals = Record<CaseState, number> & { cases: number };

/** The totals of `outcomes`. */
export function totalsOf(outcomes: readonly { state: CaseState }[]): CaseTotals {
  const totals: CaseTotals = {
    cases: outcomes.length,
    PASS: 0,
    FAIL: 0,
    ERROR: 0,
    PENDING: 0,
    STARTED: 0,
    'NOT RUN': 0,
  };
  for (const outcome of outcomes) totals[outcome.state] += 1;
  return totals;
}
