/**
 * The storage interface for traces and logs. The embedded SQLite store implements it; a
 * PostgreSQL store for deployments that outgrow one machine would implement the same.
 * @module
 */

import type { LogRecordRecord, SpanRecord } from '../otlp/model.js';
import type { IngestOutcome, OtlpEncoding, OtlpSignal } from './decode-request.js';

/** What the store knows of one trace, for receipts. */
export interface TraceSummary {
  traceId: string;
  /** The service's own ID of the trace: a UUID (see `serviceTraceId`). */
  serviceTraceId: string;
  spanCount: number;
  /** Grows by one with every accepted write touching the trace. */
  revision: number;
  /** Union of the field masks of the trace's spans and correlated log records. */
  fields: number;
}

/** Durable storage of spans (with events and links), resources, scopes and log records. */
export interface TraceStore {
  /**
   * Decodes one OTLP export request body and stores its valid records atomically (all of them, or
   * none). Resolves with the counts once durable. Rejects with `MalformedExportError` when the body
   * is not an export request (nothing stored) and `StoreWriteError` when storing failed.
   */
  ingest(signal: OtlpSignal, encoding: OtlpEncoding, body: Uint8Array): Promise<IngestOutcome>;
  /** The summary of a trace, or `undefined` when no write touched it. */
  getTraceSummary(traceId: string): TraceSummary | undefined;
  /** Which of `spanIds` are stored in the trace. */
  findSpanIds(traceId: string, spanIds: readonly string[]): Set<string>;
  /** Spans of a trace, in start order (for tests and the viewer). */
  listSpans(traceId: string): SpanRecord[];
  /** Log records correlated with a trace, in time order. */
  listLogs(traceId: string): LogRecordRecord[];
  /**
   * Brings the read model's trace index up to date with every span stored so far. Rejects with
   * `StoreWriteError` when indexing failed or the store is closed.
   */
  catchUpIndex(): Promise<void>;
  /** Finishes the writes in flight and releases the store. */
  close(): Promise<void>;
}
