/**
 * Trace snapshots: a copy of a trace's stored spans and log records, taken when an execution
 * completes with `traceEvidence: required`. Later writes to the trace do not change the snapshot,
 * so evaluators see the evidence as it was when the execution ended. The files the copies list
 * are read through the snapshot (see `snapshot-files.ts`).
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { StatementSync } from 'node:sqlite';
import { ApiError } from '../../http/api-error.js';
import type { FileRecords } from '../../ingest/file-records.js';
import type { LogRecordRecord, SpanRecord } from '../../otlp/model.js';
import type { EvalContext } from '../core/eval-context.js';
import { requireRow } from '../core/require-row.js';
import { type SnapshotFile, SnapshotFiles } from './snapshot-files.js';

/** A stored snapshot. */
export interface TraceSnapshot {
  id: string;
  traceId: string;
  revision: number;
  spanCount: number;
  spans: unknown[];
  logs: unknown[];
  createdAt: string;
}

interface SnapshotRow {
  id: string;
  trace_id: string;
  revision: number;
  span_count: number;
  spans: string;
  logs: string;
  created_at: string;
}

/** Takes and reads trace snapshots. */
export class TraceSnapshots {
  readonly #context: EvalContext;
  readonly #insert: StatementSync;
  readonly #get: StatementSync;
  readonly #files: SnapshotFiles;

  /**
   * `records` are the media-file records of the project: with them, a snapshot records which of
   * the files it lists its trace held when it was taken.
   */
  constructor(context: EvalContext, records?: FileRecords) {
    this.#context = context;
    this.#files = new SnapshotFiles(context.db, records);
    this.#insert = context.db.prepare(
      'INSERT INTO eval_trace_snapshots (id, trace_id, revision, span_count, spans, logs, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.#get = context.db.prepare('SELECT * FROM eval_trace_snapshots WHERE id = ?');
  }

  /**
   * Copies the trace as stored now, and records which of the files it lists the trace holds.
   * Runs in the caller's transaction.
   *
   * @throws 409 `conflict` when no write of the trace is stored yet, or when its revision is below
   *   `expectedRevision` (flush the tracing client, then retry with the same idempotency key).
   */
  take(traceId: string, expectedRevision: number | undefined): string {
    const summary = this.#context.traceStore.getTraceSummary(traceId);
    if (summary === undefined) {
      throw new ApiError(
        409,
        'conflict',
        "The execution's trace is not stored (yet): flush the tracing client, then retry the completion with the same idempotency key.",
      );
    }
    if (expectedRevision !== undefined && summary.revision < expectedRevision) {
      throw new ApiError(
        409,
        'conflict',
        `The stored trace is at revision ${summary.revision}, below expectedTraceRevision ${expectedRevision}: flush the tracing client, then retry with the same idempotency key.`,
      );
    }
    const spans = this.#context.traceStore.listSpans(traceId);
    const logs = this.#context.traceStore.listLogs(traceId);
    const id = randomUUID();
    this.#insert.run(
      id,
      traceId,
      summary.revision,
      spans.length,
      JSON.stringify(spans),
      JSON.stringify(logs),
      this.#context.now(),
    );
    this.#files.record(id, traceId, spans, logs);
    return id;
  }

  /**
   * What snapshot `id` says of file `sha256` (see `SnapshotFiles.find`); `spanId` limits the
   * listings read for its name to that span and its correlated log records.
   *
   * @throws 404 when no snapshot has this ID.
   */
  file(id: string, sha256: string, spanId: string | undefined): SnapshotFile {
    const snapshot = this.get(id);
    return this.#files.find(
      {
        id,
        traceId: snapshot.traceId,
        spans: snapshot.spans as SpanRecord[],
        logs: snapshot.logs as LogRecordRecord[],
      },
      sha256,
      spanId,
    );
  }

  /** A snapshot. @throws 404 when unknown. */
  get(id: string): TraceSnapshot {
    return requireRow(this.#get, id, 'No trace snapshot has this ID.', (row: SnapshotRow) => ({
      id: row.id,
      traceId: row.trace_id,
      revision: Number(row.revision),
      spanCount: Number(row.span_count),
      spans: JSON.parse(row.spans) as unknown[],
      logs: JSON.parse(row.logs) as unknown[],
      createdAt: row.created_at,
    }));
  }
}
