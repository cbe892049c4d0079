/**
 * The outcome of each case of an experiment, from what the service holds: PASS, FAIL, ERROR (the
 * case errored: its command failed, hung, wrote nothing, may have completed without a saved
 * outcome, or a scorer or judge failed) or PENDING (checks pending: a deferred scorer has no result
 * yet).
 * @module
 */
import type { EvaluationResult, ExperimentItem, JudgeJob, ScorerVersion } from '@svc-run/sdk/evals';

/** A case's outcome. */
export type CaseState = 'PASS' | 'FAIL' | 'ERROR' | 'PENDING';

/** A metric a scorer returned. */
export interface CaseMetric {
  name: string;
  value: boolean | number | string;
  passed?: boolean;
}

/** One scorer's verdict on a case. */
export interface CaseScore {
  scorerVersionId: string;
  /** `pending`: no result yet (a judge job under way, a manual scorer, a scorer not run here). */
  status: 'scored' | 'error' | 'skipped' | 'pending';
  metrics?: CaseMetric[];
  explanation?: string;
  error?: { type: string; message?: string };
}

/** A failed metric: the scorer version, the metric, and the scorer's explanation. */
export interface CaseFailure {
  scorerVersionId: string;
  metric: string;
  explanation?: string;
}

/** The outcome of one case. */
export interface CaseOutcome {
  caseId: string;
  externalKey: string;
  state: CaseState;
  executionId: string | null;
  attempt: number | null;
  traceId: string | null;
  scores: CaseScore[];
  failures: CaseFailure[];
  /** Why the case errored. */
  error?: { type: string; message: string };
}

/** What the outcomes are read from. */
export interface CaseStateInput {
  items: readonly ExperimentItem[];
  /** The run's results (of every attempt). */
  results: readonly EvaluationResult[];
  /** The experiment's scorer versions, in its order. */
  scorerVersions: readonly ScorerVersion[];
  /** The run's judge jobs. */
  judgeJobs: readonly JudgeJob[];
  /** A case error known locally, by trace ID (the command's report), when the service keeps no message. */
  localErrors?: ReadonlyMap<string, { type: string; message: string }>;
}

/** The message of a case whose execution may have completed without a saved outcome. */
export const UNCERTAIN_MESSAGE =
  'svc eval stopped while the command ran, or before saving its outcome: the command may have completed, so it is not run again. Rerun with --retry-errors to run it anyway.';

function scoreOf(result: EvaluationResult, scorerVersionId: string): CaseScore {
  switch (result.status) {
    case 'scored':
      return {
        scorerVersionId,
        status: 'scored',
        metrics: result.metrics.map((metric) => ({ ...metric }) as CaseMetric),
        ...(result.explanation === undefined ? {} : { explanation: result.explanation }),
      };
    case 'skipped':
      return { scorerVersionId, status: 'skipped', explanation: result.explanation };
    case 'error':
      return { scorerVersionId, status: 'error', error: { ...result.error } };
  }
}

function judgeError(job: JudgeJob, scorerVersionId: string): CaseScore {
  const type = job.state === 'cancelled' ? 'JudgeJobCancelled' : (job.error?.type ?? 'JudgeJobError');
  return {
    scorerVersionId,
    status: 'error',
    error: { type, message: `The hosted judge job ${job.id} ended in ${job.state}.` },
  };
}

/** The outcome of every case of `input.items`, in their order. */
export function caseOutcomes(input: CaseStateInput): CaseOutcome[] {
  const results = new Map(
    input.results.map((result) => [`${result.evaluationItemId} ${result.scorerVersionId}`, result]),
  );
  const jobs = new Map(input.judgeJobs.map((job) => [`${job.evaluationItemId} ${job.scorerVersionId}`, job]));
  return input.items.map((item) => {
    const execution = item.latestExecution;
    const outcome: CaseOutcome = {
      caseId: item.caseId,
      externalKey: item.externalKey,
      state: 'ERROR',
      executionId: execution?.id ?? null,
      attempt: execution?.attempt ?? null,
      traceId: execution?.traceExternalId ?? null,
      scores: [],
      failures: [],
    };
    if (execution === null) {
      outcome.error = { type: 'NotRun', message: 'The case was not run: the run stopped before it.' };
      return outcome;
    }
    if (execution.state === 'started') {
      outcome.error = { type: 'UncertainExecution', message: UNCERTAIN_MESSAGE };
      return outcome;
    }
    if (execution.state !== 'succeeded') {
      const local =
        execution.traceExternalId === null ? undefined : input.localErrors?.get(execution.traceExternalId);
      const type = execution.error?.type ?? local?.type ?? 'Error';
      outcome.error = {
        type,
        message:
          execution.error?.message ?? local?.message ?? `The execution ended in state ${execution.state}.`,
      };
      return outcome;
    }
    const itemId = execution.evaluationItemId ?? '';
    for (const version of input.scorerVersions) {
      const key = `${itemId} ${version.id}`;
      const result = results.get(key);
      const job = jobs.get(key);
      const score =
        result !== undefined
          ? scoreOf(result, version.id)
          : job !== undefined && (job.state === 'error' || job.state === 'cancelled')
            ? judgeError(job, version.id)
            : { scorerVersionId: version.id, status: 'pending' as const };
      outcome.scores.push(score);
      for (const metric of score.metrics ?? []) {
        if (metric.passed === false) {
          outcome.failures.push({
            scorerVersionId: version.id,
            metric: metric.name,
            ...(score.explanation === undefined ? {} : { explanation: score.explanation }),
          });
        }
      }
    }
    const failedScorer = outcome.scores.find((score) => score.status === 'error');
    if (failedScorer !== undefined) {
      outcome.error = {
        type: failedScorer.error?.type ?? 'ScorerError',
        message: failedScorer.error?.message ?? 'A scorer failed on this case.',
      };
      outcome.state = 'ERROR';
    } else if (outcome.failures.length > 0) {
      outcome.state = 'FAIL';
    } else if (outcome.scores.some((score) => score.status === 'pending')) {
      outcome.state = 'PENDING';
    } else {
      outcome.state = 'PASS';
    }
    return outcome;
  });
}
