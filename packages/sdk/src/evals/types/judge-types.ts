/**
 * Hosted judge jobs and the judge budget, as the evaluation client sends and returns them: the
 * service's wire shapes (`wire-types.generated.ts`, from the server's schemas).
 * @module
 */
import type * as Wire from './wire-types.generated.js';

/** The hosted judge budget of the project: jobs the project may create, used and remaining, and whether the service has a judge model. */
export type JudgeBudget = Wire.JudgeBudget;

/** One job to create: grade an item of the run with an `llm_judge` scorer version of the run. */
export type JudgeJobRequest = Wire.CreateJudgeJobs['jobs'][number];

/** Input of `createJudgeJobs`: 1 to 100 jobs, no repeats. */
export interface CreateJudgeJobsInput extends Wire.CreateJudgeJobs {
  idempotencyKey: string;
}

/** The answer of `createJudgeJobs`: the job IDs, in request order. */
export type CreatedJudgeJobs = Wire.CreatedJudgeJobs;

/**
 * Judge job states: `queued`, `running`, then `succeeded` (with `resultId`), `error` (with
 * `error`) or `cancelled`.
 */
export type JudgeJobState = Wire.JudgeJob['state'];

/** A hosted judge job. */
export type JudgeJob = Wire.JudgeJob;
