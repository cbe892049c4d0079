/**
 * The embedded {@link TraceStore}: SQLite through `node:sqlite`. Reads run on the request
 * thread's connection. Each export request is decoded on a decoder thread (`ingest/`) and stored
 * by the writer thread (`sqlite-writer-worker.ts`) in one transaction, so a request is stored
 * whole or not at all, and is answered only once committed.
 * @module
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { KeyValue, LogRecordRecord, SpanRecord } from '../otlp/model.js';
import { serviceTraceId } from '../store/service-trace-id.js';
import type { IngestOutcome, OtlpEncoding, OtlpSignal } from './decode-request.js';
import { IngestPool } from './ingest-pool.js';
import { SqliteFileRecords } from './sqlite-file-records.js';
import { SqliteWriter } from './sqlite-writer.js';
import type { TraceStore, TraceSummary } from './trace-store.js';

interface SpanRow {
  span_id: string;
  parent_span_id: string;
  trace_state: string;
  flags: number;
  name: string;
  kind: number;
  start_time_unix_nano: string;
  end_time_unix_nano: string;
  attributes: string;
  dropped_attributes_count: number;
  dropped_events_count: number;
  dropped_links_count: number;
  status_code: number;
  status_message: string;
  fields: number;
}

interface LogRow {
  span_id: string;
  time_unix_nano: string;
  observed_time_unix_nano: string;
  severity_number: number;
  severity_text: string;
  event_name: string;
  body: string | null;
  attributes: string;
  dropped_attributes_count: number;
  flags: number;
  fields: number;
}

/** {@link TraceStore} on an open SQLite database (see `openDatabase`). */
export class SqliteTraceStore implements TraceStore {
  readonly #writer: SqliteWriter;
  readonly #pool: IngestPool;
  readonly #statements: Record<string, StatementSync>;
  readonly #db: DatabaseSync;

  /**
   * Reads through `db` (open and migrated). Writes go to a writer thread with its own connection
   * to `path`, fed by `decoderThreads` decoder threads.
   */
  constructor(db: DatabaseSync, path: string, decoderThreads?: number) {
    this.#db = db;
    this.#writer = new SqliteWriter(path);
    this.#pool = new IngestPool(this.#writer, decoderThreads);
    const prepare = (sql: string) => db.prepare(sql);
    this.#statements = {
      traceSummary: prepare(
        `SELECT t.trace_no, t.revision,
           (SELECT COUNT(*) FROM spans s WHERE s.trace_no = t.trace_no) AS span_count
         FROM traces t WHERE t.trace_id = ?`,
      ),
      traceNumber: prepare('SELECT trace_no FROM traces WHERE trace_id = ?'),
      spanFields: prepare('SELECT DISTINCT fields FROM spans WHERE trace_no = ?'),
      logFields: prepare('SELECT DISTINCT fields FROM log_records WHERE trace_no = ?'),
      spanIdsOfTrace: prepare('SELECT span_id FROM spans WHERE trace_no = ? AND span_id = ?'),
      listSpans: prepare(
        `SELECT span_id, parent_span_id, trace_state, flags, name, kind,
           CAST(start_time_unix_nano AS TEXT) AS start_time_unix_nano,
           CAST(end_time_unix_nano AS TEXT) AS end_time_unix_nano, attributes, dropped_attributes_count,
           dropped_events_count, dropped_links_count, status_code, status_message, fields
         FROM spans WHERE trace_no = ? ORDER BY start_time_unix_nano, id`,
      ),
      listEvents: prepare(
        `SELECT CAST(time_unix_nano AS TEXT) AS time_unix_nano, name, attributes, dropped_attributes_count
         FROM span_events WHERE trace_no = ? AND span_id = ? ORDER BY position`,
      ),
      listLinks: prepare(
        `SELECT linked_trace_id, linked_span_id, trace_state, flags, attributes, dropped_attributes_count
         FROM span_links WHERE trace_no = ? AND span_id = ? ORDER BY position`,
      ),
      listLogs: prepare(
        `SELECT span_id, CAST(time_unix_nano AS TEXT) AS time_unix_nano,
           CAST(observed_time_unix_nano AS TEXT) AS observed_time_unix_nano, severity_number, severity_text,
           event_name, body, attributes, dropped_attributes_count, flags, fields
         FROM log_records WHERE trace_no = ? ORDER BY time_unix_nano, id`,
      ),
    };
  }

  /** The media-file records of `projectId`, on this store's connection and writer thread. */
  fileRecords(projectId: string): SqliteFileRecords {
    return new SqliteFileRecords(this.#db, this.#writer, projectId);
  }

  ingest(signal: OtlpSignal, encoding: OtlpEncoding, body: Uint8Array): Promise<IngestOutcome> {
    return this.#pool.ingest(signal, encoding, body);
  }

  /** Stops the decoder threads and then the writer thread, after the requests in flight. */
  async close(): Promise<void> {
    await this.#pool.close();
    await this.#writer.close();
  }

  /** The row number of a stored trace (see the trace-number migration), or `undefined`. */
  #traceNumber(traceId: string): number | undefined {
    return (this.#statements.traceNumber!.get(traceId) as { trace_no: number } | undefined)?.trace_no;
  }

  getTraceSummary(traceId: string): TraceSummary | undefined {
    const row = this.#statements.traceSummary!.get(traceId) as
      | { trace_no: number; revision: number; span_count: number }
      | undefined;
    if (row === undefined) return undefined;
    let fields = 0;
    for (const r of this.#statements.spanFields!.all(row.trace_no) as { fields: number }[])
      fields |= r.fields;
    for (const r of this.#statements.logFields!.all(row.trace_no) as { fields: number }[]) fields |= r.fields;
    return {
      traceId,
      serviceTraceId: serviceTraceId(traceId),
      spanCount: row.span_count,
      revision: row.revision,
      fields,
    };
  }

  findSpanIds(traceId: string, spanIds: readonly string[]): Set<string> {
    const found = new Set<string>();
    const number = this.#traceNumber(traceId);
    if (number === undefined) return found;
    for (const spanId of spanIds) {
      if (this.#statements.spanIdsOfTrace!.get(number, spanId) !== undefined) found.add(spanId);
    }
    return found;
  }

  listSpans(traceId: string): SpanRecord[] {
    const s = this.#statements;
    const number = this.#traceNumber(traceId);
    if (number === undefined) return [];
    return (s.listSpans!.all(number) as unknown as SpanRow[]).map((row) => ({
      traceId,
      spanId: row.span_id,
      parentSpanId: row.parent_span_id,
      traceState: row.trace_state,
      flags: row.flags,
      name: row.name,
      kind: row.kind,
      startTimeUnixNano: row.start_time_unix_nano,
      endTimeUnixNano: row.end_time_unix_nano,
      attributes: JSON.parse(row.attributes) as KeyValue[],
      droppedAttributesCount: row.dropped_attributes_count,
      events: (
        s.listEvents!.all(number, row.span_id) as {
          time_unix_nano: string;
          name: string;
          attributes: string;
          dropped_attributes_count: number;
        }[]
      ).map((e) => ({
        timeUnixNano: e.time_unix_nano,
        name: e.name,
        attributes: JSON.parse(e.attributes) as KeyValue[],
        droppedAttributesCount: e.dropped_attributes_count,
      })),
      droppedEventsCount: row.dropped_events_count,
      links: (
        s.listLinks!.all(number, row.span_id) as {
          linked_trace_id: string;
          linked_span_id: string;
          trace_state: string;
          flags: number;
          attributes: string;
          dropped_attributes_count: number;
        }[]
      ).map((l) => ({
        traceId: l.linked_trace_id,
        spanId: l.linked_span_id,
        traceState: l.trace_state,
        flags: l.flags,
        attributes: JSON.parse(l.attributes) as KeyValue[],
        droppedAttributesCount: l.dropped_attributes_count,
      })),
      droppedLinksCount: row.dropped_links_count,
      statusCode: row.status_code,
      statusMessage: row.status_message,
      fields: row.fields,
    }));
  }

  catchUpIndex(): Promise<void> {
    return this.#writer.catchUpIndex();
  }

  listLogs(traceId: string): LogRecordRecord[] {
    const number = this.#traceNumber(traceId);
    if (number === undefined) return [];
    return (this.#statements.listLogs!.all(number) as unknown as LogRow[]).map((row) => ({
      traceId,
      spanId: row.span_id,
      timeUnixNano: row.time_unix_nano,
      observedTimeUnixNano: row.observed_time_unix_nano,
      severityNumber: row.severity_number,
      severityText: row.severity_text,
      eventName: row.event_name,
      body: row.body === null ? null : JSON.parse(row.body),
      attributes: JSON.parse(row.attributes) as KeyValue[],
      droppedAttributesCount: row.dropped_attributes_count,
      flags: row.flags,
      fields: row.fields,
    }));
  }
}
