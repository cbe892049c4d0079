/**
 * Experiments and their executions. An experiment pins a frozen dataset version, scorer versions
 * and a configuration, and owns an evaluation run; each execution is one attempt at one case.
 * Methods run inside the calling route's transaction.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { StatementSync } from 'node:sqlite';
import type { z } from '@hono/zod-openapi';
import { ApiError } from '../../http/api-error.js';
import type { EvalContext } from '../core/eval-context.js';
import { fromColumn, toColumn, withOptional } from '../core/json-columns.js';
import { type Page, type PageRequest, readPage } from '../core/paging.js';
import { requireRow } from '../core/require-row.js';
import type { Case, DatasetStore } from '../datasets/dataset-store.js';
import type { RunStore } from '../runs/run-store.js';
import type { ScorerStore } from '../scorers/scorer-store.js';
import type {
  CompleteExecutionSchema,
  CreateExperimentSchema,
  ExecutionSchema,
  ExperimentSchema,
  StartExecutionSchema,
} from './experiment-schemas.js';
import type { TraceSnapshots } from './trace-snapshots.js';

export type Experiment = z.output<typeof ExperimentSchema>;
export type Execution = z.output<typeof ExecutionSchema>;
type CreateExperiment = z.output<typeof CreateExperimentSchema>;
type StartExecution = z.output<typeof StartExecutionSchema>;
type CompleteExecution = z.output<typeof CompleteExecutionSchema>;

/** An experiment item: a case and its latest execution. */
export type ExperimentItem = Case & { caseId: string; latestExecution: Execution | null };

/** The answer of a completion. */
export interface Completion {
  executionId: string;
  subjectId: string;
  traceSnapshotId: string | null;
  evaluationItemId: string;
}

interface ExperimentRow {
  id: string;
  name: string;
  dataset_id: string;
  dataset_version_id: string;
  scorer_version_ids: string;
  config: string;
  evaluation_run_id: string;
  created_at: string;
  finished_at: string | null;
  case_count: number;
}

interface ExecutionRow {
  id: string;
  experiment_id: string;
  case_id: string;
  attempt: number;
  state: Execution['state'];
  trace_external_id: string | null;
  previous_execution_id: string | null;
  replaced_by_execution_id: string | null;
  output: string | null;
  error: string | null;
  trace_evidence: 'required' | 'omit' | null;
  omission_reason: string | null;
  trace_snapshot_id: string | null;
  subject_id: string | null;
  evaluation_item_id: string | null;
  started_at: string;
  completed_at: string | null;
}

function toExperiment(row: ExperimentRow): Experiment {
  return {
    id: row.id,
    name: row.name,
    datasetId: row.dataset_id,
    datasetVersionId: row.dataset_version_id,
    scorerVersionIds: JSON.parse(row.scorer_version_ids) as string[],
    config: JSON.parse(row.config) as Record<string, unknown>,
    evaluationRunId: row.evaluation_run_id,
    caseCount: Number(row.case_count),
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

/** An execution row as the API shows it. */
export function toExecution(row: ExecutionRow): Execution {
  const execution: Execution = {
    id: row.id,
    experimentId: row.experiment_id,
    caseId: row.case_id,
    attempt: Number(row.attempt),
    state: row.state,
    traceExternalId: row.trace_external_id,
    previousExecutionId: row.previous_execution_id,
    replacedByExecutionId: row.replaced_by_execution_id,
    traceEvidence: row.trace_evidence,
    omissionReason: row.omission_reason,
    traceSnapshotId: row.trace_snapshot_id,
    subjectId: row.subject_id,
    evaluationItemId: row.evaluation_item_id,
    startedAt: row.started_at,
    completedAt: row.completed_at,
  };
  withOptional(execution, 'output', fromColumn(row.output));
  return withOptional(execution, 'error', fromColumn(row.error));
}

const EXPERIMENT_SELECT = `SELECT x.*, v.dataset_id,
  (SELECT COUNT(*) FROM eval_cases c WHERE c.version_id = x.dataset_version_id) AS case_count
  FROM eval_experiments x JOIN eval_dataset_versions v ON v.id = x.dataset_version_id`;

/** Experiments and executions. */
export class ExperimentStore {
  readonly #context: EvalContext;
  readonly #datasets: DatasetStore;
  readonly #scorers: ScorerStore;
  readonly #runs: RunStore;
  readonly #snapshots: TraceSnapshots;
  readonly #sql: Record<string, StatementSync>;

  constructor(
    context: EvalContext,
    stores: { datasets: DatasetStore; scorers: ScorerStore; runs: RunStore; snapshots: TraceSnapshots },
  ) {
    this.#context = context;
    this.#datasets = stores.datasets;
    this.#scorers = stores.scorers;
    this.#runs = stores.runs;
    this.#snapshots = stores.snapshots;
    const prepare = (sql: string) => context.db.prepare(sql);
    this.#sql = {
      insertExperiment: prepare(
        `INSERT INTO eval_experiments (id, name, dataset_version_id, scorer_version_ids, config, evaluation_run_id, created_at, finished_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, NULL)`,
      ),
      experiment: prepare(`${EXPERIMENT_SELECT} WHERE x.id = ?`),
      newestFirst: prepare(`${EXPERIMENT_SELECT} WHERE x.seq < ? ORDER BY x.seq DESC LIMIT ?`),
      finish: prepare('UPDATE eval_experiments SET finished_at = ? WHERE id = ?'),
      insertExecution: prepare(
        `INSERT INTO eval_executions (id, experiment_id, case_id, attempt, state, trace_external_id, previous_execution_id, started_at)
         VALUES (?, ?, ?, ?, 'started', ?, ?, ?)`,
      ),
      replace: prepare('UPDATE eval_executions SET replaced_by_execution_id = ? WHERE id = ?'),
      complete: prepare(
        `UPDATE eval_executions SET state = ?, output = ?, error = ?, trace_evidence = ?, omission_reason = ?,
           trace_snapshot_id = ?, subject_id = ?, evaluation_item_id = ?, completed_at = ? WHERE id = ?`,
      ),
      execution: prepare('SELECT * FROM eval_executions WHERE id = ?'),
      latestExecution: prepare(
        'SELECT * FROM eval_executions WHERE experiment_id = ? AND case_id = ? ORDER BY attempt DESC LIMIT 1',
      ),
      executionsOfCase: prepare(
        'SELECT * FROM eval_executions WHERE experiment_id = ? AND case_id = ? ORDER BY attempt',
      ),
      cases: prepare('SELECT id, seq FROM eval_cases WHERE version_id = ? AND seq > ? ORDER BY seq LIMIT ?'),
    };
  }

  /** Creates an experiment on a frozen dataset version, with its evaluation run. */
  create(input: CreateExperiment): { id: string; evaluationRunId: string } {
    const version = this.#datasets.getVersion(input.datasetVersionId);
    if (!version.frozen) {
      throw new ApiError(
        409,
        'conflict',
        'The dataset version is not frozen: freeze it (freezeDatasetVersion) before running an experiment on it, so its cases cannot change.',
      );
    }
    for (const [index, id] of input.scorerVersionIds.entries())
      this.#scorers.getVersion(id, `scorerVersionIds[${index}]`);
    const id = randomUUID();
    const evaluationRunId = this.#runs.createRun(input.name, id, input.scorerVersionIds);
    this.#sql.insertExperiment!.run(
      id,
      input.name,
      input.datasetVersionId,
      JSON.stringify(input.scorerVersionIds),
      JSON.stringify(input.config ?? {}),
      evaluationRunId,
      this.#context.now(),
    );
    return { id, evaluationRunId };
  }

  /** An experiment. @throws 404 when unknown. */
  get(id: string): Experiment {
    return requireRow(this.#sql.experiment!, id, 'No experiment has this ID.', toExperiment);
  }

  /**
   * Experiments newest first (the viewer's list): at most `limit` of those made before the
   * position `before` (from the newest when omitted), and the position to pass as `before` for the
   * next ones (`null` after the oldest).
   */
  listNewestFirst(page: { before?: number; limit: number }): { items: Experiment[]; before: number | null } {
    const rows = this.#sql.newestFirst!.all(
      page.before ?? Number.MAX_SAFE_INTEGER,
      page.limit + 1,
    ) as unknown as (ExperimentRow & { seq: number })[];
    const shown = rows.slice(0, page.limit);
    return {
      items: shown.map(toExperiment),
      before: rows.length > page.limit ? Number(shown.at(-1)!.seq) : null,
    };
  }

  /** A page of the experiment's items: its cases in order, each with its latest execution. */
  listItems(id: string, page: PageRequest): Page<ExperimentItem> {
    const experiment = this.get(id);
    return readPage(
      this.#sql.cases!,
      page,
      (row: { id: string; seq: number }) => this.#item(experiment.id, row.id),
      experiment.datasetVersionId,
    );
  }

  /** The case view: the case, every execution of it, and their results. */
  caseView(id: string, caseId: string): { experimentId: string; case: Case; executions: Execution[] } {
    const experiment = this.get(id);
    const item = this.#caseOf(experiment, caseId);
    const executions = (this.#sql.executionsOfCase!.all(id, caseId) as unknown as ExecutionRow[]).map(
      toExecution,
    );
    return { experimentId: id, case: item, executions };
  }

  /**
   * Starts an attempt at a case. A case with an execution needs `previousExecutionId` (its latest
   * execution, which the new attempt replaces); an execution still started (which may have
   * completed) is replaced only with `allowUncertainRetry: true` as well.
   */
  start(experimentId: string, caseId: string, input: StartExecution): Execution {
    const experiment = this.#open(experimentId);
    this.#caseOf(experiment, caseId);
    const latest = this.#sql.latestExecution!.get(experimentId, caseId) as ExecutionRow | undefined;
    if (latest === undefined && input.previousExecutionId !== undefined) {
      throw new ApiError(
        409,
        'conflict',
        'previousExecutionId was given, but the case has no execution yet.',
      );
    }
    if (latest !== undefined) {
      if (input.previousExecutionId === undefined) {
        throw new ApiError(
          409,
          'conflict',
          latest.state === 'started'
            ? 'An execution of this case is still started and may have completed: complete it, or replace it with previousExecutionId and allowUncertainRetry: true.'
            : 'This case has an execution already; to run it again, pass its latest execution as previousExecutionId.',
        );
      }
      if (input.previousExecutionId !== latest.id) {
        throw new ApiError(409, 'conflict', "previousExecutionId is not the case's latest execution.");
      }
      if (latest.state === 'started' && input.allowUncertainRetry !== true) {
        throw new ApiError(
          409,
          'conflict',
          'The previous execution is still started and may have completed: replace it only with allowUncertainRetry: true.',
        );
      }
    }
    const id = randomUUID();
    this.#sql.insertExecution!.run(
      id,
      experimentId,
      caseId,
      latest === undefined ? 1 : Number(latest.attempt) + 1,
      input.traceExternalId ?? null,
      latest?.id ?? null,
      this.#context.now(),
    );
    if (latest !== undefined) this.#sql.replace!.run(id, latest.id);
    return this.getExecution(id);
  }

  /** An execution. @throws 404 when unknown. */
  getExecution(id: string): Execution {
    return requireRow(this.#sql.execution!, id, 'No execution has this ID.', toExecution);
  }

  /**
   * Completes an execution in a terminal state. Saves its subject and puts it in the experiment's
   * run; with `traceEvidence: required`, snapshots its trace first.
   */
  complete(executionId: string, input: CompleteExecution): Completion {
    const execution = this.getExecution(executionId);
    if (execution.replacedByExecutionId !== null) {
      throw new ApiError(
        409,
        'conflict',
        'This execution was replaced by a later attempt and cannot be completed.',
      );
    }
    if (execution.state !== 'started') {
      throw new ApiError(
        409,
        'conflict',
        'This execution is completed already; a retry of the same completion needs the same idempotency key.',
      );
    }
    const experiment = this.#open(execution.experimentId);
    let traceSnapshotId: string | null = null;
    if (input.traceEvidence === 'required') {
      if (execution.traceExternalId === null) {
        throw new ApiError(
          409,
          'conflict',
          'traceEvidence: required needs the trace of the execution: pass traceExternalId when starting it.',
        );
      }
      traceSnapshotId = this.#snapshots.take(execution.traceExternalId, input.expectedTraceRevision);
    }
    const subjectId = this.#runs.createSubject(executionId);
    const evaluationItemId = this.#runs.addItem(experiment.evaluationRunId, subjectId);
    this.#sql.complete!.run(
      input.state,
      toColumn(input.output),
      toColumn(input.error),
      input.traceEvidence ?? null,
      input.omissionReason ?? null,
      traceSnapshotId,
      subjectId,
      evaluationItemId,
      this.#context.now(),
      executionId,
    );
    return { executionId, subjectId, traceSnapshotId, evaluationItemId };
  }

  /** Finishes an experiment: it accepts no more executions or completions. */
  finish(id: string): { id: string; finishedAt: string } {
    this.#open(id);
    const finishedAt = this.#context.now();
    this.#sql.finish!.run(finishedAt, id);
    return { id, finishedAt };
  }

  #open(id: string): Experiment {
    const experiment = this.get(id);
    if (experiment.finishedAt !== null) {
      throw new ApiError(
        409,
        'conflict',
        'The experiment is finished: it accepts no more executions or completions.',
      );
    }
    return experiment;
  }

  #caseOf(experiment: Experiment, caseId: string): Case {
    const item = this.#datasets.findCase(caseId);
    if (item === undefined || item.versionId !== experiment.datasetVersionId) {
      throw new ApiError(404, 'not_found', "No case of the experiment's dataset version has this ID.");
    }
    return item;
  }

  #item(experimentId: string, caseId: string): ExperimentItem {
    const item = this.#datasets.findCase(caseId)!;
    const latest = this.#sql.latestExecution!.get(experimentId, caseId) as ExecutionRow | undefined;
    return { ...item, caseId, latestExecution: latest === undefined ? null : toExecution(latest) };
  }
}
