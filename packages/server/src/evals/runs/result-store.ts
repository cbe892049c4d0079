/**
 * Results: the Score of one scorer version on one evaluation item, at most one per pair. A
 * submission is checked whole (every result against the Score rules and the pinned metric
 * definitions) and stored all or nothing.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { StatementSync } from 'node:sqlite';
import type { z } from '@hono/zod-openapi';
import { ApiError } from '../../http/api-error.js';
import type { EvalContext } from '../core/eval-context.js';
import { withOptional } from '../core/json-columns.js';
import { type Page, type PageRequest, readPage } from '../core/paging.js';
import { requireRow } from '../core/require-row.js';
import type { ScorerStore } from '../scorers/scorer-store.js';
import { pinnedPair } from './pinned-pair.js';
import type { ResultSchema, SubmitResultsSchema } from './run-schemas.js';
import type { RunStore } from './run-store.js';
import { type ScoreFields, scoreProblem } from './score-rules.js';

export type EvaluationResult = z.output<typeof ResultSchema>;
type Submission = z.output<typeof SubmitResultsSchema>;

interface ResultRow {
  seq: number;
  id: string;
  run_id: string;
  item_id: string;
  subject_id: string;
  scorer_version_id: string;
  score: string;
  source_digest: string | null;
  judge_job_id: string | null;
  created_at: string;
}

function toResult(row: ResultRow): EvaluationResult {
  const score = JSON.parse(row.score) as ScoreFields;
  const result = {
    id: row.id,
    runId: row.run_id,
    evaluationItemId: row.item_id,
    subjectId: row.subject_id,
    scorerVersionId: row.scorer_version_id,
    status: score.status,
  } as EvaluationResult;
  withOptional(result, 'metrics', score.metrics);
  withOptional(result, 'explanation', score.explanation);
  withOptional(result, 'evidence', score.evidence);
  withOptional(result, 'error', score.error);
  withOptional(result, 'sourceDigest', row.source_digest ?? undefined);
  return Object.assign(result, { judgeJobId: row.judge_job_id, createdAt: row.created_at });
}

/** The Score fields of `score`, as stored. */
function scoreText(score: ScoreFields): string {
  const stored: Record<string, unknown> = { status: score.status };
  withOptional(stored, 'metrics', score.metrics);
  withOptional(stored, 'explanation', score.explanation);
  withOptional(stored, 'evidence', score.evidence);
  withOptional(stored, 'error', score.error);
  return JSON.stringify(stored);
}

const RESULT_SELECT = 'SELECT r.*, i.subject_id FROM eval_results r JOIN eval_items i ON i.id = r.item_id';

/** A result to store, checked. */
export interface CheckedResult {
  itemId: string;
  scorerVersionId: string;
  score: ScoreFields;
  sourceDigest: string | null;
  judgeJobId: string | null;
}

/** Results. */
export class ResultStore {
  readonly #context: EvalContext;
  readonly #runs: RunStore;
  readonly #scorers: ScorerStore;
  readonly #sql: Record<string, StatementSync>;

  constructor(context: EvalContext, stores: { runs: RunStore; scorers: ScorerStore }) {
    this.#context = context;
    this.#runs = stores.runs;
    this.#scorers = stores.scorers;
    const prepare = (sql: string) => context.db.prepare(sql);
    this.#sql = {
      insert: prepare(
        `INSERT INTO eval_results (id, run_id, item_id, scorer_version_id, score, source_digest, judge_job_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      exists: prepare('SELECT 1 FROM eval_results WHERE item_id = ? AND scorer_version_id = ?'),
      result: prepare(`${RESULT_SELECT} WHERE r.id = ?`),
      ofPair: prepare(`${RESULT_SELECT} WHERE r.item_id = ? AND r.scorer_version_id = ?`),
      results: prepare(`${RESULT_SELECT} WHERE r.run_id = ? AND r.seq > ? ORDER BY r.seq LIMIT ?`),
      ofExecution: prepare(
        `${RESULT_SELECT} JOIN eval_subjects s ON s.id = i.subject_id WHERE s.execution_id = ? ORDER BY r.seq`,
      ),
    };
  }

  /**
   * Checks and stores a submission, all or nothing.
   *
   * @throws 404 for an item not of the run; 400 for a Score that breaks the rules or whose metrics
   *   do not match the pinned definitions, a scorer version not pinned by the run, a missing
   *   `sourceDigest`, or a pair repeated in the submission; 409 for a `sourceDigest` other than the
   *   version's, a hosted judge's scorer version, or a pair that has a result already.
   */
  submit(runId: string, submission: Submission): { ids: string[] } {
    const run = this.#runs.getRun(runId);
    const pairs = new Set<string>();
    const checked = submission.results.map((result, index): CheckedResult => {
      const at = `results.${index}`;
      const version = pinnedPair({ runs: this.#runs, scorers: this.#scorers }, run, result, at);
      if (version.definition.kind === 'llm_judge') {
        throw new ApiError(
          409,
          'conflict',
          `${at}.scorerVersionId: results of a hosted judge come from its judge jobs (createJudgeJobs), not from submissions.`,
        );
      }
      const pair = `${result.evaluationItemId} ${result.scorerVersionId}`;
      if (pairs.has(pair)) {
        throw new ApiError(
          422,
          'invalid_request',
          `${at}: repeats the item and scorer version of an earlier result.`,
        );
      }
      pairs.add(pair);
      const sourceDigest = this.#sourceDigest(result.sourceDigest, version.definition, at);
      const problem = scoreProblem(result, version.definition.metrics);
      if (problem !== undefined) {
        throw new ApiError(
          422,
          'invalid_request',
          `${at}.${problem.field}: ${problem.rule}${problem.metricMismatch ? ' (metrics must match the pinned definitions exactly)' : ''}.`,
        );
      }
      return {
        itemId: result.evaluationItemId,
        scorerVersionId: result.scorerVersionId,
        score: result,
        sourceDigest,
        judgeJobId: null,
      };
    });
    return { ids: checked.map((result, index) => this.store(runId, result, `results.${index}`)) };
  }

  /** Stores one checked result. @throws 409 when the pair has a result already. */
  store(runId: string, result: CheckedResult, at = 'result'): string {
    if (this.#sql.exists!.get(result.itemId, result.scorerVersionId) !== undefined) {
      throw new ApiError(
        409,
        'conflict',
        `${at}: this item has a result of this scorer version already; a result is never submitted twice.`,
      );
    }
    const id = randomUUID();
    this.#sql.insert!.run(
      id,
      runId,
      result.itemId,
      result.scorerVersionId,
      scoreText(result.score),
      result.sourceDigest,
      result.judgeJobId,
      this.#context.now(),
    );
    return id;
  }

  /** The result of a pair, or `undefined`. */
  find(itemId: string, scorerVersionId: string): EvaluationResult | undefined {
    const row = this.#sql.ofPair!.get(itemId, scorerVersionId) as ResultRow | undefined;
    return row === undefined ? undefined : toResult(row);
  }

  /** Whether a pair has a result. */
  has(itemId: string, scorerVersionId: string): boolean {
    return this.#sql.exists!.get(itemId, scorerVersionId) !== undefined;
  }

  /** A result. @throws 404 when unknown. */
  get(id: string): EvaluationResult {
    return requireRow(this.#sql.result!, id, 'No result has this ID.', toResult);
  }

  /** A page of a run's results, in submission order. */
  list(runId: string, page: PageRequest): Page<EvaluationResult> {
    this.#runs.getRun(runId);
    return readPage(this.#sql.results!, page, toResult, runId);
  }

  /** The results of the subjects of `executionIds`, in order. */
  ofExecutions(executionIds: readonly string[]): EvaluationResult[] {
    return executionIds.flatMap((id) =>
      (this.#sql.ofExecution!.all(id) as unknown as ResultRow[]).map(toResult),
    );
  }

  #sourceDigest(given: string | undefined, definition: { kind: string; sourceDigest?: string }, at: string) {
    if (definition.kind !== 'local_code') {
      if (given !== undefined) {
        throw new ApiError(
          422,
          'invalid_request',
          `${at}.sourceDigest: is allowed only for local_code scorer versions.`,
        );
      }
      return null;
    }
    if (given === undefined) {
      throw new ApiError(
        422,
        'invalid_request',
        `${at}.sourceDigest: is required for a local_code scorer version.`,
      );
    }
    const normalized = given.startsWith('sha256:') ? given : `sha256:${given}`;
    if (normalized !== definition.sourceDigest) {
      throw new ApiError(
        409,
        'conflict',
        `${at}.sourceDigest: does not match the scorer version's; the scorer's source changed, so publish a new version for it.`,
      );
    }
    return normalized;
  }
}
