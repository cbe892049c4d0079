/**
 * Routes of the hosted judge: the budget, and jobs (create, list, get, cancel).
 * @module
 */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { GuardedEnv } from '../../auth/route-guard.js';
import { idParam } from '../core/common-schemas.js';
import type { EvalContext } from '../core/eval-context.js';
import { registerEvalRoute } from '../core/eval-route.js';
import { registerGetRoute, registerPageRoute } from '../core/read-routes.js';
import {
  CancelJudgeJobSchema,
  CreatedJudgeJobsSchema,
  CreateJudgeJobsSchema,
  JudgeBudgetSchema,
  JudgeJobPageSchema,
  JudgeJobSchema,
} from './judge-schemas.js';
import type { JudgeStore } from './judge-store.js';
import type { JudgeWorker } from './judge-worker.js';

const RunParams = z.object({ runId: idParam('runId') });
const JobParams = z.object({ jobId: idParam('jobId') });

/** Registers the hosted judge routes. */
export function registerJudgeRoutes(
  app: OpenAPIHono<GuardedEnv>,
  context: EvalContext,
  judge: { jobs: JudgeStore; worker: JudgeWorker },
): void {
  const { jobs, worker } = judge;
  registerEvalRoute(app, context, {
    id: 'evals.judge.budget',
    summary: 'The hosted judge budget: jobs allowed, used and remaining, and whether a model is configured',
    response: JudgeBudgetSchema,
    handle: () => jobs.budget(),
  });
  registerEvalRoute(app, context, {
    id: 'evals.judgeJobs.create',
    summary: 'Queues hosted judge jobs: one per item of the run and llm_judge scorer version',
    description:
      'A worker in the service runs each job against the configured model and stores its result. Without a ' +
      'configured model, jobs end in state error (judge_not_configured).',
    params: RunParams,
    body: CreateJudgeJobsSchema,
    response: CreatedJudgeJobsSchema,
    errors: {
      400: 'A scorer version is not pinned by the run or not a hosted judge, or a job is repeated',
      404: 'No such run, or an item is not of the run',
      409: 'The pair has a result or an active job (conflict), or the budget is exhausted (budget_exhausted)',
    },
    handle: ({ params, body, afterCommit }) => {
      const created = jobs.create(params.runId, body);
      afterCommit(() => worker.wake());
      return created;
    },
  });
  registerPageRoute(app, context, {
    id: 'evals.judgeJobs.list',
    summary: 'Lists the judge jobs of a run, oldest first',
    params: RunParams,
    response: JudgeJobPageSchema,
    missing: 'No such run',
    handle: (params, page) => jobs.list(params.runId, page),
  });
  registerGetRoute(app, context, {
    id: 'evals.judgeJobs.get',
    summary: 'Reads a judge job',
    params: JobParams,
    response: JudgeJobSchema,
    missing: 'No such job',
    handle: (params) => jobs.get(params.jobId),
  });
  registerEvalRoute(app, context, {
    id: 'evals.judgeJobs.cancel',
    summary: 'Cancels a queued or running judge job; its model call is stopped and no result is stored',
    params: JobParams,
    body: CancelJudgeJobSchema,
    response: JudgeJobSchema,
    errors: { 404: 'No such job', 409: 'The job has ended (conflict)' },
    handle: ({ params, body, afterCommit }) => {
      const job = jobs.cancel(params.jobId, body.reason);
      afterCommit(() => worker.abort(params.jobId));
      return job;
    },
  });
}
