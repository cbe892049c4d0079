/**
 * Schemas of hosted judge jobs and the judge budget.
 * @module
 */
import { z } from '@hono/zod-openapi';
import { ErrorInfoSchema, IdSchema, text } from '../core/common-schemas.js';
import { MAX_JUDGE_JOBS_PER_REQUEST } from '../core/eval-limits.js';
import { pageSchema } from '../core/paging.js';

/** Judge job states: `queued`, `running`, then `succeeded`, `error` or `cancelled`. */
export const JudgeJobStateSchema = z.enum(['queued', 'running', 'succeeded', 'error', 'cancelled']);

/** `POST …/runs/{runId}/judge-jobs`. */
export const CreateJudgeJobsSchema = z
  .strictObject({
    jobs: z
      .array(z.strictObject({ evaluationItemId: IdSchema, scorerVersionId: IdSchema }))
      .min(1)
      .max(MAX_JUDGE_JOBS_PER_REQUEST),
  })
  .openapi('CreateJudgeJobs');

export const CreatedJudgeJobsSchema = z
  .object({ ids: z.array(IdSchema).describe('Job IDs, in request order') })
  .openapi('CreatedJudgeJobs');

/** A hosted judge job. */
export const JudgeJobSchema = z
  .object({
    id: IdSchema,
    runId: IdSchema,
    evaluationItemId: IdSchema,
    scorerVersionId: IdSchema,
    state: JudgeJobStateSchema,
    resultId: IdSchema.nullable().describe('The result the judge produced (state succeeded)'),
    error: ErrorInfoSchema.nullable().describe('Why the job ended in state error'),
    cancelReason: z.string().nullable(),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
  })
  .openapi('JudgeJob');

export const JudgeJobPageSchema = pageSchema(JudgeJobSchema, 'JudgeJobPage');

/** `POST …/judge-jobs/{jobId}/cancel`. */
export const CancelJudgeJobSchema = z.strictObject({ reason: text(1000) }).openapi('CancelJudgeJob');

/** The hosted judge budget of the project. */
export const JudgeBudgetSchema = z
  .object({
    jobLimit: z.number().int().describe('Jobs the project may create'),
    jobsUsed: z.number().int().describe('Jobs created, except those cancelled before they started'),
    jobsRemaining: z.number().int(),
    modelConfigured: z
      .boolean()
      .describe('Whether the server has a judge model; without one, jobs end in error'),
  })
  .openapi('JudgeBudget');
