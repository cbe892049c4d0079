/**
 * The read model's SQL over the embedded store: a trace's spans without their attribute values,
 * counts per span, one span whole. Reads run on the request thread's connection (WAL: readers
 * never wait for the writer).
 * @module
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { TERM } from './trace-index/trace-terms.js';

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
  /** The span's facts from the trace index (`null` before the index has read the span). */
  model: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  error_type: string | null;
  error: number | null;
}

/** Reads traces for the read model. */
export class TraceRows {
  readonly #statements: Record<
    'traceNumber' | 'spans' | 'eventCounts' | 'logCounts' | 'terms',
    StatementSync
  >;

  constructor(db: DatabaseSync) {
    const prepare = (sql: string) => db.prepare(sql);
    this.#statements = {
      traceNumber: prepare('SELECT trace_no FROM traces WHERE trace_id = ?'),
      spans: prepare(
        `SELECT s.id, s.span_id, s.parent_span_id, s.name, s.kind,
           CAST(s.start_time_unix_nano AS TEXT) AS start_time_unix_nano,
           CAST(s.end_time_unix_nano AS TEXT) AS end_time_unix_nano, s.status_code,
           f.model, f.input_tokens, f.output_tokens, f.error_type, f.error
         FROM spans s LEFT JOIN span_facts f ON f.span_row = s.id
         WHERE s.trace_no = ? ORDER BY s.start_time_unix_nano, s.id`,
      ),
      terms: prepare('SELECT kind, value FROM trace_terms WHERE trace_no = ? AND kind IN (?, ?, ?)'),
      eventCounts: prepare(
        'SELECT span_id, COUNT(*) AS n FROM span_events WHERE trace_no = ? GROUP BY span_id',
      ),
      logCounts: prepare(
        'SELECT span_id, COUNT(*) AS n FROM log_records WHERE trace_no = ? GROUP BY span_id',
      ),
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

  /** Correlated log records per span (`''`: correlated with the trace but no span). */
  logCounts(traceNo: number): Map<string, number> {
    return countMap(this.#statements.logCounts.all(traceNo));
  }

  /** The trace's services, sessions and users, from the trace index. */
  people(traceNo: number): { services: string[]; sessions: string[]; users: string[] } {
    const found = { services: [] as string[], sessions: [] as string[], users: [] as string[] };
    const rows = this.#statements.terms.all(traceNo, TERM.service, TERM.session, TERM.user) as {
      kind: number;
      value: string;
    }[];
    for (const { kind, value } of rows) {
      if (kind === TERM.service) found.services.push(value);
      else if (kind === TERM.session) found.sessions.push(value);
      else found.users.push(value);
    }
    return found;
  }
}

function countMap(rows: unknown[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const row of rows as { span_id: string; n: number }[]) map.set(row.span_id, Number(row.n));
  return map;
}
