/**
 * Evaluation runs, their items and the subjects they score. A subject is what an execution
 * produced (its case, state, output, error and trace evidence), saved when the execution
 * completed; an evaluation item puts one subject in one run. An experiment's run gets an item for
 * every completed execution; a run created over subject IDs gets one per subject.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { StatementSync } from 'node:sqlite';
import type { z } from '@hono/zod-openapi';
import type { EvalContext } from '../core/eval-context.js';
import { fromColumn, withOptional } from '../core/json-columns.js';
import { type Page, type PageRequest, readPage } from '../core/paging.js';
import { requireRow } from '../core/require-row.js';
import type { ItemSchema, RunSchema, SubjectSchema } from './run-schemas.js';

/** An evaluation run. */
export type EvaluationRun = z.output<typeof RunSchema>;

/** An evaluation item: one subject in one run. */
export type EvaluationItem = z.output<typeof ItemSchema>;

/** A subject: what one completed execution produced. */
export type Subject = z.output<typeof SubjectSchema>;

interface RunRow {
  seq: number;
  id: string;
  name: string;
  experiment_id: string | null;
  scorer_version_ids: string;
  created_at: string;
  item_count: number;
}

interface ItemRow {
  seq: number;
  id: string;
  run_id: string;
  subject_id: string;
  created_at: string;
}

interface SubjectRow {
  id: string;
  execution_id: string;
  experiment_id: string;
  case_id: string;
  state: Subject['executionState'];
  inputs: string;
  expected: string | null;
  metadata: string | null;
  output: string | null;
  error: string | null;
  trace_external_id: string | null;
  trace_snapshot_id: string | null;
  created_at: string;
}

function toRun(row: RunRow): EvaluationRun {
  return {
    id: row.id,
    name: row.name,
    experimentId: row.experiment_id,
    scorerVersionIds: JSON.parse(row.scorer_version_ids) as string[],
    itemCount: Number(row.item_count),
    createdAt: row.created_at,
  };
}

function toItem(row: ItemRow): EvaluationItem {
  return { id: row.id, runId: row.run_id, subjectId: row.subject_id, createdAt: row.created_at };
}

function toSubject(row: SubjectRow): Subject {
  const subject: Subject = {
    id: row.id,
    executionId: row.execution_id,
    experimentId: row.experiment_id,
    caseId: row.case_id,
    executionState: row.state,
    inputs: JSON.parse(row.inputs) as unknown,
    traceId: row.trace_external_id,
    traceSnapshotId: row.trace_snapshot_id,
    createdAt: row.created_at,
  };
  withOptional(subject, 'expected', fromColumn(row.expected));
  withOptional(subject, 'metadata', fromColumn(row.metadata));
  withOptional(subject, 'output', fromColumn(row.output));
  return withOptional(subject, 'error', fromColumn(row.error));
}

/** Runs, items and subjects. */
export class RunStore {
  readonly #context: EvalContext;
  readonly #sql: Record<string, StatementSync>;

  constructor(context: EvalContext) {
    this.#context = context;
    const prepare = (sql: string) => context.db.prepare(sql);
    this.#sql = {
      insertRun: prepare(
        'INSERT INTO eval_runs (id, name, experiment_id, scorer_version_ids, created_at) VALUES (?, ?, ?, ?, ?)',
      ),
      run: prepare(
        'SELECT r.*, (SELECT COUNT(*) FROM eval_items i WHERE i.run_id = r.id) AS item_count FROM eval_runs r WHERE r.id = ?',
      ),
      insertItem: prepare('INSERT INTO eval_items (id, run_id, subject_id, created_at) VALUES (?, ?, ?, ?)'),
      items: prepare('SELECT * FROM eval_items WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?'),
      item: prepare('SELECT * FROM eval_items WHERE id = ?'),
      insertSubject: prepare('INSERT INTO eval_subjects (id, execution_id, created_at) VALUES (?, ?, ?)'),
      subjectExists: prepare('SELECT 1 FROM eval_subjects WHERE id = ?'),
      subject: prepare(
        `SELECT s.id, s.execution_id, e.experiment_id, e.case_id, e.state, c.inputs, c.expected, c.metadata,
           e.output, e.error, e.trace_external_id, e.trace_snapshot_id, s.created_at
         FROM eval_subjects s
         JOIN eval_executions e ON e.id = s.execution_id
         JOIN eval_cases c ON c.id = e.case_id
         WHERE s.id = ?`,
      ),
    };
  }

  /** Creates a run and returns its ID. */
  createRun(name: string, experimentId: string | null, scorerVersionIds: readonly string[]): string {
    const id = randomUUID();
    this.#sql.insertRun!.run(id, name, experimentId, JSON.stringify(scorerVersionIds), this.#context.now());
    return id;
  }

  /** A run. @throws 404 when unknown. */
  getRun(id: string): EvaluationRun {
    return requireRow(this.#sql.run!, id, 'No evaluation run has this ID.', toRun);
  }

  /** Puts a subject in a run; returns the item's ID. */
  addItem(runId: string, subjectId: string): string {
    const id = randomUUID();
    this.#sql.insertItem!.run(id, runId, subjectId, this.#context.now());
    return id;
  }

  /** A page of the items of a run, in the order they were added. */
  listItems(runId: string, page: PageRequest): Page<EvaluationItem> {
    this.getRun(runId);
    return readPage(this.#sql.items!, page, toItem, runId);
  }

  /** An item, or `undefined`. */
  findItem(itemId: string): EvaluationItem | undefined {
    const row = this.#sql.item!.get(itemId) as ItemRow | undefined;
    return row === undefined ? undefined : toItem(row);
  }

  /** Saves the subject of a completed execution; returns its ID. */
  createSubject(executionId: string): string {
    const id = randomUUID();
    this.#sql.insertSubject!.run(id, executionId, this.#context.now());
    return id;
  }

  /** Whether a subject exists. */
  hasSubject(id: string): boolean {
    return this.#sql.subjectExists!.get(id) !== undefined;
  }

  /** A subject. @throws 404 when unknown. */
  getSubject(id: string): Subject {
    return requireRow(this.#sql.subject!, id, 'No subject has this ID.', toSubject);
  }
}
