/**
 * Grading by hosted judges: `svc eval` queues a judge job for each case whose command succeeded and
 * each `llm_judge` scorer version, crash-safe (each request's key and jobs saved before the call,
 * its answer after), then waits up to `--wait` seconds for the jobs to end.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EvaluationClient, JudgeJob, JudgeJobRequest } from '@svc-run/sdk/evals';
import { allPages } from './all-pages.js';
import type { RunState } from './run-state.js';
import { withRetry } from './transient-retry.js';

/** Most jobs one request may create. */
const JOBS_PER_REQUEST = 100;

/** How often the jobs are read while waiting. */
const POLL_MILLIS = 1_000;

function pairKey(job: JudgeJobRequest): string {
  return `${job.evaluationItemId} ${job.scorerVersionId}`;
}

/**
 * Makes sure a judge job was requested for each of `wanted`: replays the saved requests without an
 * answer (same key), then requests the jobs no saved request covers.
 */
export async function requestJudgeJobs(options: {
  client: EvaluationClient;
  runId: string;
  state: RunState;
  save: () => Promise<void>;
  wanted: readonly JudgeJobRequest[];
}): Promise<void> {
  const { client, runId, state, save } = options;
  const send = async (call: RunState['judgeJobs'][number]) => {
    if (call.result !== undefined) return;
    call.result = await withRetry(() =>
      client.createJudgeJobs(runId, { idempotencyKey: call.key, jobs: call.body.jobs }),
    );
    await save();
  };
  for (const call of state.judgeJobs) await send(call);
  const covered = new Set(state.judgeJobs.flatMap((call) => call.body.jobs.map(pairKey)));
  const missing = options.wanted.filter((job) => !covered.has(pairKey(job)));
  for (let start = 0; start < missing.length; start += JOBS_PER_REQUEST) {
    const call = { key: randomUUID(), body: { jobs: missing.slice(start, start + JOBS_PER_REQUEST) } };
    state.judgeJobs.push(call);
    await save();
    await send(call);
  }
}

/** Whether a job has ended. */
export function isSettled(job: JudgeJob): boolean {
  return job.state === 'succeeded' || job.state === 'error' || job.state === 'cancelled';
}

/**
 * The run's judge jobs once every job of `jobIds` has ended, or when `waitSeconds` have passed
 * (read once with 0), or `interrupt` is aborted.
 */
export async function waitForJudgeJobs(options: {
  client: EvaluationClient;
  runId: string;
  jobIds: ReadonlySet<string>;
  waitSeconds: number;
  interrupt: AbortSignal;
  onPoll?(settled: number, total: number): void;
}): Promise<Map<string, JudgeJob>> {
  const deadline = Date.now() + options.waitSeconds * 1000;
  for (;;) {
    const jobs = new Map(
      (await withRetry(() => allPages((page) => options.client.listJudgeJobs(options.runId, page)))).map(
        (job) => [job.id, job] as const,
      ),
    );
    const settled = [...options.jobIds].filter((id) => {
      const job = jobs.get(id);
      return job !== undefined && isSettled(job);
    }).length;
    options.onPoll?.(settled, options.jobIds.size);
    const left = deadline - Date.now();
    if (settled === options.jobIds.size || left <= 0 || options.interrupt.aborted) return jobs;
    await sleep(Math.min(POLL_MILLIS, left), undefined, { signal: options.interrupt }).catch(() => undefined);
  }
}
