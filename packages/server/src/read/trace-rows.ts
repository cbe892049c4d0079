/**
 * The read model's SQL over the embedded store: a trace's spans without their attribute values,
 * counts per span, one span whole. Reads run on the request thread's connection (WAL: readers
 * never wait for the writer).
 * @module
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';

/** A span row of an outline. */
export interface OutlineRow {
  id: number;
  span_id: string;
  parent_span_id: string;
  name: string;
  kind: number;
  start_time_unix_nano: string;
  end_time_unix_nano: string;
  status_code: number;
  attributes: string;
  resource_id: number;
}

/** Reads traces for the read model. */
export class TraceRows {
  readonly #statements: Record<
    'traceNumber' | 'spans' | 'eventCounts' | 'exceptionEvents' | 'logCounts' | 'resource' | 'spanCount',
    StatementSync
  >;

  constructor(db: DatabaseSync) {
    const prepare = (sql: string) => db.prepare(sql);
    this.#statements = {
      traceNumber: prepare('SELECT trace_no FROM traces WHERE trace_id = ?'),
      spanCount: prepare('SELECT COUNT(*) AS n FROM spans WHERE trace_no = ?'),
      spans: prepare(
        `SELECT id, span_id, parent_span_id, name, kind,
           CAST(start_time_unix_nano AS TEXT) AS start_time_unix_nano,
           CAST(end_time_unix_nano AS TEXT) AS end_time_unix_nano, status_code, attributes, resource_id
         FROM spans WHERE trace_no = ? ORDER BY start_time_unix_nano, id`,
      ),
      eventCounts: prepare(
        'SELECT span_id, COUNT(*) AS n FROM span_events WHERE trace_no = ? GROUP BY span_id',
      ),
      exceptionEvents: prepare(
        "SELECT span_id, attributes FROM span_events WHERE trace_no = ? AND name = 'exception' ORDER BY position",
      ),
      logCounts: prepare(
        'SELECT span_id, COUNT(*) AS n FROM log_records WHERE trace_no = ? GROUP BY span_id',
      ),
      resource: prepare('SELECT attributes FROM resources WHERE id = ?'),
    };
  }

  /** The trace's row number, or `undefined` when no write touched it. */
  traceNumber(traceId: string): number | undefined {
    const row = this.#statements.traceNumber.get(traceId) as { trace_no: number } | undefined;
    return row?.trace_no;
  }

  /** The trace's spans in start order (attribute lists as stored JSON text). */
  spans(traceNo: number): OutlineRow[] {
    return this.#statements.spans.all(traceNo) as unknown as OutlineRow[];
  }

  /** Events per span. */
  eventCounts(traceNo: number): Map<string, number> {
    return countMap(this.#statements.eventCounts.all(traceNo));
  }

  /** The attribute lists (JSON text) of each span's `exception` events, in order. */
  exceptionEvents(traceNo: number): Map<string, string[]> {
    const map = new Map<string, string[]>();
    for (const row of this.#statements.exceptionEvents.all(traceNo) as {
      span_id: string;
      attributes: string;
    }[]) {
      map.set(row.span_id, [...(map.get(row.span_id) ?? []), row.attributes]);
    }
    return map;
  }

  /** Correlated log records per span (`''`: correlated with the trace but no span). */
  logCounts(traceNo: number): Map<string, number> {
    return countMap(this.#statements.logCounts.all(traceNo));
  }

  /** A resource's attribute list (JSON text), or `undefined`. Resources never change once stored. */
  resource(id: number): string | undefined {
    return (this.#statements.resource.get(id) as { attributes: string } | undefined)?.attributes;
  }
}

function countMap(rows: unknown[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const row of rows as { span_id: string; n: number }[]) map.set(row.span_id, Number(row.n));
  return map;
}
