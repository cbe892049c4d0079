/**
 * Hosted judge jobs: one job grades one evaluation item with one `llm_judge` scorer version. A
 * job is `queued` when created, `running` while the worker calls the model, and ends `succeeded`
 * (with its result), `error` (with why) or `cancelled`. At most one job is active (queued or
 * running) per item and scorer version, and none once the pair has a result.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { StatementSync } from 'node:sqlite';
import type { z } from '@hono/zod-openapi';
import { ApiError } from '../../http/api-error.js';
import type { EvalContext } from '../core/eval-context.js';
import { fromColumn } from '../core/json-columns.js';
import { type Page, type PageRequest, readPage } from '../core/paging.js';
import { requireRow } from '../core/require-row.js';
import { pinnedPair } from '../runs/pinned-pair.js';
import type { ResultStore } from '../runs/result-store.js';
import type { RunStore } from '../runs/run-store.js';
import type { ScorerStore } from '../scorers/scorer-store.js';
import type { CreateJudgeJobsSchema, JudgeBudgetSchema, JudgeJobSchema } from './judge-schemas.js';

export type JudgeJob = z.output<typeof JudgeJobSchema>;
export type JudgeBudget = z.output<typeof JudgeBudgetSchema>;
type CreateJudgeJobs = z.output<typeof CreateJudgeJobsSchema>;

interface JobRow {
  seq: number;
  id: string;
  run_id: string;
  item_id: string;
  scorer_version_id: string;
  state: JudgeJob['state'];
  result_id: string | null;
  error: string | null;
  cancel_reason: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

function toJob(row: JobRow): JudgeJob {
  return {
    id: row.id,
    runId: row.run_id,
    evaluationItemId: row.item_id,
    scorerVersionId: row.scorer_version_id,
    state: row.state,
    resultId: row.result_id,
    error: (fromColumn(row.error) as JudgeJob['error']) ?? null,
    cancelReason: row.cancel_reason,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

/** Judge jobs and the budget. */
export class JudgeStore {
  readonly #context: EvalContext;
  readonly #runs: RunStore;
  readonly #scorers: ScorerStore;
  readonly #results: ResultStore;
  readonly #jobLimit: number;
  readonly #modelConfigured: boolean;
  readonly #sql: Record<string, StatementSync>;

  constructor(
    context: EvalContext,
    stores: { runs: RunStore; scorers: ScorerStore; results: ResultStore },
    options: { jobLimit: number; modelConfigured: boolean },
  ) {
    this.#context = context;
    this.#runs = stores.runs;
    this.#scorers = stores.scorers;
    this.#results = stores.results;
    this.#jobLimit = options.jobLimit;
    this.#modelConfigured = options.modelConfigured;
    const prepare = (sql: string) => context.db.prepare(sql);
    this.#sql = {
      insert: prepare(
        `INSERT INTO eval_judge_jobs (id, run_id, item_id, scorer_version_id, state, created_at)
         VALUES (?, ?, ?, ?, 'queued', ?)`,
      ),
      job: prepare('SELECT * FROM eval_judge_jobs WHERE id = ?'),
      latestFor: prepare(
        'SELECT * FROM eval_judge_jobs WHERE item_id = ? AND scorer_version_id = ? ORDER BY seq DESC LIMIT 1',
      ),
      jobs: prepare('SELECT * FROM eval_judge_jobs WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?'),
      ofRun: prepare('SELECT * FROM eval_judge_jobs WHERE run_id = ? ORDER BY seq'),
      active: prepare(
        "SELECT 1 FROM eval_judge_jobs WHERE item_id = ? AND scorer_version_id = ? AND state IN ('queued', 'running')",
      ),
      used: prepare(
        "SELECT COUNT(*) AS used FROM eval_judge_jobs WHERE NOT (state = 'cancelled' AND started_at IS NULL)",
      ),
      nextQueued: prepare("SELECT * FROM eval_judge_jobs WHERE state = 'queued' ORDER BY seq LIMIT 1"),
      claim: prepare(
        "UPDATE eval_judge_jobs SET state = 'running', started_at = ? WHERE id = ? AND state = 'queued'",
      ),
      requeue: prepare(
        "UPDATE eval_judge_jobs SET state = 'queued', started_at = NULL WHERE state = 'running'",
      ),
      succeed: prepare(
        "UPDATE eval_judge_jobs SET state = 'succeeded', result_id = ?, finished_at = ? WHERE id = ? AND state = 'running'",
      ),
      fail: prepare(
        "UPDATE eval_judge_jobs SET state = 'error', error = ?, finished_at = ? WHERE id = ? AND state = 'running'",
      ),
      cancel: prepare(
        "UPDATE eval_judge_jobs SET state = 'cancelled', cancel_reason = ?, finished_at = ? WHERE id = ?",
      ),
    };
  }

  /** The budget of the project. */
  budget(): JudgeBudget {
    const used = Number((this.#sql.used!.get() as { used: number }).used);
    return {
      jobLimit: this.#jobLimit,
      jobsUsed: used,
      jobsRemaining: Math.max(0, this.#jobLimit - used),
      modelConfigured: this.#modelConfigured,
    };
  }

  /** Creates queued jobs, all or nothing. */
  create(runId: string, input: CreateJudgeJobs): { ids: string[] } {
    const run = this.#runs.getRun(runId);
    const pairs = new Set<string>();
    for (const [index, job] of input.jobs.entries()) {
      const at = `jobs.${index}`;
      const version = pinnedPair({ runs: this.#runs, scorers: this.#scorers }, run, job, at);
      if (version.definition.kind !== 'llm_judge') {
        throw new ApiError(
          422,
          'invalid_request',
          `${at}.scorerVersionId: is not a hosted judge (kind llm_judge).`,
        );
      }
      const pair = `${job.evaluationItemId} ${job.scorerVersionId}`;
      if (pairs.has(pair)) throw new ApiError(422, 'invalid_request', `${at}: repeats an earlier job.`);
      pairs.add(pair);
      if (this.#results.has(job.evaluationItemId, job.scorerVersionId)) {
        throw new ApiError(409, 'conflict', `${at}: the item has a result of this scorer version already.`);
      }
      if (this.#sql.active!.get(job.evaluationItemId, job.scorerVersionId) !== undefined) {
        throw new ApiError(
          409,
          'conflict',
          `${at}: a job for this item and scorer version is queued or running.`,
        );
      }
    }
    const { jobsRemaining } = this.budget();
    if (input.jobs.length > jobsRemaining) {
      throw new ApiError(
        409,
        'budget_exhausted',
        `The hosted judge budget has ${jobsRemaining} jobs left; this request needs ${input.jobs.length}.`,
      );
    }
    const now = this.#context.now();
    const ids = input.jobs.map((job) => {
      const id = randomUUID();
      this.#sql.insert!.run(id, runId, job.evaluationItemId, job.scorerVersionId, now);
      return id;
    });
    return { ids };
  }

  /** A job. @throws 404 when unknown. */
  get(id: string): JudgeJob {
    return requireRow(this.#sql.job!, id, 'No judge job has this ID.', toJob);
  }

  /** The latest job of an item and scorer version, or `undefined`. */
  latestFor(itemId: string, scorerVersionId: string): JudgeJob | undefined {
    const row = this.#sql.latestFor!.get(itemId, scorerVersionId) as JobRow | undefined;
    return row === undefined ? undefined : toJob(row);
  }

  /** A page of the jobs of a run, oldest first. */
  list(runId: string, page: PageRequest): Page<JudgeJob> {
    this.#runs.getRun(runId);
    return readPage(this.#sql.jobs!, page, toJob, runId);
  }

  /** Every job of a run, oldest first (the viewer's experiment page); none for an unknown run. */
  allOfRun(runId: string): JudgeJob[] {
    return (this.#sql.ofRun!.all(runId) as unknown as JobRow[]).map(toJob);
  }

  /** Cancels a queued or running job. @throws 409 when it has ended. */
  cancel(id: string, reason: string): JudgeJob {
    const job = this.get(id);
    if (job.state !== 'queued' && job.state !== 'running') {
      throw new ApiError(
        409,
        'conflict',
        `The judge job has ended (state ${job.state}); only queued or running jobs can be cancelled.`,
      );
    }
    this.#sql.cancel!.run(reason, this.#context.now(), id);
    return this.get(id);
  }

  /** Claims the oldest queued job for the worker (outside any route transaction). */
  claimNext(): JudgeJob | undefined {
    const row = this.#sql.nextQueued!.get() as JobRow | undefined;
    if (row === undefined) return undefined;
    this.#sql.claim!.run(this.#context.now(), row.id);
    return this.get(row.id);
  }

  /** Puts jobs left running by a stopped server back in the queue. */
  requeueRunning(): void {
    this.#sql.requeue!.run();
  }

  /** Ends a running job with its result; false when it is no longer running (cancelled). */
  succeed(id: string, resultId: string): boolean {
    return Number(this.#sql.succeed!.run(resultId, this.#context.now(), id).changes) === 1;
  }

  /** Ends a running job in error; false when it is no longer running. */
  fail(id: string, error: { type: string; message?: string }): boolean {
    return Number(this.#sql.fail!.run(JSON.stringify(error), this.#context.now(), id).changes) === 1;
  }

  /** Whether a job is still running. */
  isRunning(id: string): boolean {
    return this.get(id).state === 'running';
  }
}
