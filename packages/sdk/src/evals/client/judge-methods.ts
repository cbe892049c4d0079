/**
 * The hosted judge methods of the evaluation client.
 * @module
 */
import type { Page, PageOptions, RequestOptions } from '../types/common-types.js';
import type { CreatedJudgeJobs, CreateJudgeJobsInput, JudgeBudget, JudgeJob } from '../types/judge-types.js';
import { idSegment, keyedPost, optionalIdempotencyKey, pageQuery } from './argument-checks.js';
import type { EvalTransport } from './eval-transport.js';

/** The hosted judge. */
export interface JudgeMethods {
  /** The project's hosted judge budget. */
  getJudgeBudget(): Promise<JudgeBudget>;
  /** Queues hosted judge jobs on items of a run; returns the job IDs. */
  createJudgeJobs(runId: string, input: CreateJudgeJobsInput): Promise<CreatedJudgeJobs>;
  /** A page of the judge jobs of a run, oldest first. */
  listJudgeJobs(runId: string, page?: PageOptions): Promise<Page<JudgeJob>>;
  /** Reads a judge job. */
  getJudgeJob(jobId: string): Promise<JudgeJob>;
  /** Cancels a queued or running job (its model call is stopped; no result is stored). */
  cancelJudgeJob(jobId: string, reason: string, options?: RequestOptions): Promise<JudgeJob>;
}

const BASE = '/api/v1/evals';

/** The hosted judge methods on `send`. */
export function judgeMethods(send: EvalTransport): JudgeMethods {
  return {
    getJudgeBudget: async () =>
      send({ operation: 'getJudgeBudget', method: 'GET', path: `${BASE}/judge/budget` }),
    createJudgeJobs: async (runId, input) =>
      send(keyedPost('createJudgeJobs', `${BASE}/runs/${idSegment('runId', runId)}/judge-jobs`, input)),
    listJudgeJobs: async (runId, page) =>
      send({
        operation: 'listJudgeJobs',
        method: 'GET',
        path: `${BASE}/runs/${idSegment('runId', runId)}/judge-jobs`,
        query: pageQuery(page),
      }),
    getJudgeJob: async (jobId) =>
      send({
        operation: 'getJudgeJob',
        method: 'GET',
        path: `${BASE}/judge-jobs/${idSegment('jobId', jobId)}`,
      }),
    cancelJudgeJob: async (jobId, reason, options) =>
      send({
        operation: 'cancelJudgeJob',
        method: 'POST',
        path: `${BASE}/judge-jobs/${idSegment('jobId', jobId)}/cancel`,
        body: { reason },
        idempotencyKey: optionalIdempotencyKey(options),
      }),
  };
}
