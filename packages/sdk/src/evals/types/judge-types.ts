/**
 * Hosted judge jobs and the judge budget, as the evaluation client sends and returns them.
 * @module
 */
import type { ErrorInfo } from './common-types.js';

/** The hosted judge budget of the project. */
export interface JudgeBudget {
  /** Jobs the project may create. */
  jobLimit: number;
  /** Jobs created, except those cancelled before they started. */
  jobsUsed: number;
  jobsRemaining: number;
  /** Whether the service has a judge model; without one, jobs end in state `error`. */
  modelConfigured: boolean;
}

/** One job to create: grade an item of the run with an `llm_judge` scorer version of the run. */
export interface JudgeJobRequest {
  evaluationItemId: string;
  scorerVersionId: string;
}

/** Input of `createJudgeJobs`. */
export interface CreateJudgeJobsInput {
  idempotencyKey: string;
  /** 1 to 100 jobs, no repeats. */
  jobs: JudgeJobRequest[];
}

/** The answer of `createJudgeJobs`: the job IDs, in request order. */
export interface CreatedJudgeJobs {
  ids: string[];
}

/**
 * Judge job states: `queued`, `running`, then `succeeded` (with `resultId`), `error` (with
 * `error`) or `cancelled`.
 */
export type JudgeJobState = 'queued' | 'running' | 'succeeded' | 'error' | 'cancelled';

/** A hosted judge job. */
export interface JudgeJob {
  id: string;
  runId: string;
  evaluationItemId: string;
  scorerVersionId: string;
  state: JudgeJobState;
  resultId: string | null;
  /** Why the job ended in error, e.g. `judge_not_configured`, `missing_binding`, `timeout`. */
  error: ErrorInfo | null;
  cancelReason: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}
