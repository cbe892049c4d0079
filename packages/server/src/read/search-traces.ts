/**
 * `searchTraces`: traces newest first, filtered, in cursor pages, over the trace index.
 *
 * Every filter is answered from an index: the time range and "newest first" from `trace_index`
 * ordered by start, errors from its partial index, exact values (service, session, user, model,
 * attribute `key = value`) from `trace_terms`, span name substrings from the trigram index of
 * `span_names`. Which one drives the query depends on the filter: an exact value matching few
 * traces is read first and its traces sorted; a value matching many is checked per trace while
 * the traces are read newest first, which finds a page quickly.
 * @module
 */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { ApiError } from '../http/api-error.js';
import { attributeTerm, TERM } from './trace-index/trace-terms.js';
import { isoOf } from './trace-outline.js';

/** What to search for; every field is optional and they combine with AND. */
export interface TraceSearchFilter {
  /** Traces starting at or after this time (Unix nanoseconds). */
  fromUnixNano?: bigint;
  /** Traces starting before this time (Unix nanoseconds). */
  toUnixNano?: bigint;
  /** A resource's `service.name`, exactly. */
  service?: string;
  /** A substring of a span's name, any case. */
  spanName?: string;
  sessionId?: string;
  userId?: string;
  /** A model name, exactly (request or response model). */
  model?: string;
  /** Traces with (true) or without (false) an error. */
  hasError?: boolean;
  /** Traces lasting at least this long. */
  minDurationMs?: number;
  /** A span or resource attribute with this exact value (a value up to 256 characters). */
  attribute?: { key: string; value: string };
}

/** One trace of a search page. */
export interface TraceListItem {
  traceId: string;
  rootName: string | null;
  startTime: string;
  startTimeUnixNano: string;
  durationMs: number;
  spanCount: number;
  errorCount: number;
  inputTokens: number;
  outputTokens: number;
  sessions: string[];
  users: string[];
}

/** A page of traces. */
export interface TracePage {
  items: TraceListItem[];
  /** Give as `after` for the next page; `null` on the last. */
  nextCursor: string | null;
}

/** Traces per page: 1 to 100, default 20. */
export const MAX_SEARCH_LIMIT = 100;
export const DEFAULT_SEARCH_LIMIT = 20;

/** An exact-value filter drives the query when it matches at most this many traces. */
const DRIVING_TERM_LIMIT = 20_000;
/** Span names a name substring may match before it is checked per trace instead. */
const MAX_MATCHED_NAMES = 500;

/** A search page's cursor: the last trace's start (Unix ns) and row number. */
export const SEARCH_CURSOR = /^(\d{1,20})_(\d{1,15})$/;

// Unix nanoseconds pass 2^53: they are read as text (`CAST … AS TEXT`), never as numbers.

interface IndexRow {
  trace_no: number;
  trace_id: string;
  start_ns: string;
  duration_ns: string;
  root_name: string | null;
  span_count: number;
  error_count: number;
  input_tokens: number;
  output_tokens: number;
}

/** A term condition: kind, and the values any of which matches. */
interface TermCondition {
  kind: number;
  values: string[];
}

/** Searches the trace index of `db`. The index must be up to date (`catchUpIndex`). */
export function searchTraces(
  db: DatabaseSync,
  filter: TraceSearchFilter,
  page: { after?: string; limit?: number } = {},
): TracePage {
  const limit = page.limit ?? DEFAULT_SEARCH_LIMIT;
  const conditions: string[] = [];
  const params: SQLInputValue[] = [];
  if (filter.fromUnixNano !== undefined) {
    conditions.push('ti.start_ns >= ?');
    params.push(filter.fromUnixNano);
  }
  if (filter.toUnixNano !== undefined) {
    conditions.push('ti.start_ns < ?');
    params.push(filter.toUnixNano);
  }
  if (filter.hasError !== undefined)
    conditions.push(filter.hasError ? 'ti.error_count > 0' : 'ti.error_count = 0');
  if (filter.minDurationMs !== undefined) {
    conditions.push('ti.duration_ns >= ?');
    params.push(BigInt(Math.ceil(filter.minDurationMs * 1e6)));
  }
  if (page.after !== undefined) {
    const cursor = SEARCH_CURSOR.exec(page.after);
    if (cursor === null)
      throw new ApiError(400, 'invalid_request', 'after: must be a nextCursor of a previous page.');
    conditions.push('(ti.start_ns < ? OR (ti.start_ns = ? AND ti.trace_no < ?))');
    params.push(BigInt(cursor[1]!), BigInt(cursor[1]!), Number(cursor[2]));
  }

  const terms = termConditions(db, filter);
  if (terms === undefined) return { items: [], nextCursor: null };
  const driver = drivingTerm(db, terms);
  for (const term of terms) {
    if (term === driver) continue;
    conditions.push(
      `EXISTS (SELECT 1 FROM trace_terms tt WHERE tt.kind = ? AND tt.value IN (${placeholders(term.values)}) AND tt.trace_no = ti.trace_no)`,
    );
    params.push(term.kind, ...term.values);
  }
  const where = conditions.length > 0 ? `AND ${conditions.join(' AND ')}` : '';
  const sql =
    driver === undefined
      ? `SELECT ti.trace_no, CAST(ti.start_ns AS TEXT) AS start_ns, CAST(ti.duration_ns AS TEXT) AS duration_ns, ti.root_name,
         ti.span_count, ti.error_count, ti.input_tokens, ti.output_tokens, t.trace_id FROM trace_index ti JOIN traces t ON t.trace_no = ti.trace_no
         WHERE 1 ${where} ORDER BY ti.start_ns DESC, ti.trace_no DESC LIMIT ?`
      : `SELECT ti.trace_no, CAST(ti.start_ns AS TEXT) AS start_ns, CAST(ti.duration_ns AS TEXT) AS duration_ns, ti.root_name,
         ti.span_count, ti.error_count, ti.input_tokens, ti.output_tokens, t.trace_id FROM trace_terms d CROSS JOIN trace_index ti ON ti.trace_no = d.trace_no
         JOIN traces t ON t.trace_no = ti.trace_no
         WHERE d.kind = ? AND d.value IN (${placeholders(driver.values)}) ${where}
         GROUP BY ti.trace_no ORDER BY ti.start_ns DESC, ti.trace_no DESC LIMIT ?`;
  const args =
    driver === undefined ? [...params, limit + 1] : [driver.kind, ...driver.values, ...params, limit + 1];
  const rows = db.prepare(sql).all(...args) as unknown as IndexRow[];
  const more = rows.length > limit;
  const shown = rows.slice(0, limit);
  const people = db.prepare('SELECT kind, value FROM trace_terms WHERE trace_no = ? AND kind IN (?, ?)');
  const items = shown.map((row) => {
    const found = people.all(row.trace_no, TERM.session, TERM.user) as { kind: number; value: string }[];
    const start = String(row.start_ns);
    return {
      traceId: row.trace_id,
      rootName: row.root_name,
      startTime: isoOf(start),
      startTimeUnixNano: start,
      durationMs: Number(row.duration_ns) / 1e6,
      spanCount: Number(row.span_count),
      errorCount: Number(row.error_count),
      inputTokens: Number(row.input_tokens),
      outputTokens: Number(row.output_tokens),
      sessions: found.filter((t) => t.kind === TERM.session).map((t) => t.value),
      users: found.filter((t) => t.kind === TERM.user).map((t) => t.value),
    };
  });
  const last = shown.at(-1);
  return { items, nextCursor: more && last !== undefined ? `${last.start_ns}_${last.trace_no}` : null };
}

/** The exact-value conditions of `filter`; `undefined` when one can match nothing. */
function termConditions(db: DatabaseSync, filter: TraceSearchFilter): TermCondition[] | undefined {
  const terms: TermCondition[] = [];
  const exact = (kind: number, value: string | undefined) => {
    if (value !== undefined) terms.push({ kind, values: [value] });
  };
  exact(TERM.service, filter.service);
  exact(TERM.session, filter.sessionId);
  exact(TERM.user, filter.userId);
  exact(TERM.model, filter.model);
  if (filter.attribute !== undefined) {
    exact(TERM.attribute, attributeTerm(filter.attribute.key, filter.attribute.value));
  }
  if (filter.spanName !== undefined) {
    const names = matchingNames(db, filter.spanName);
    if (names.length === 0) return undefined;
    terms.push({ kind: TERM.spanName, values: names });
  }
  return terms;
}

/** IDs (as stored in terms) of the span names holding `text`, any case; at most a few hundred. */
function matchingNames(db: DatabaseSync, text: string): string[] {
  // The trigram index answers LIKE for three characters or more; shorter text scans the names.
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const sql =
    [...text].length >= 3
      ? "SELECT rowid AS id FROM span_names_text WHERE name LIKE ? ESCAPE '\\' LIMIT ?"
      : "SELECT id FROM span_names WHERE name LIKE ? ESCAPE '\\' LIMIT ?";
  const rows = db.prepare(sql).all(pattern, MAX_MATCHED_NAMES + 1) as { id: number }[];
  if (rows.length > MAX_MATCHED_NAMES) {
    throw new ApiError(
      400,
      'invalid_request',
      `spanName matches more than ${MAX_MATCHED_NAMES} span names; give a longer part of the name.`,
    );
  }
  return rows.map((row) => String(row.id));
}

/** The term that matches fewest traces, when it matches few enough to read first. */
function drivingTerm(db: DatabaseSync, terms: readonly TermCondition[]): TermCondition | undefined {
  let best: TermCondition | undefined;
  let bestCount = DRIVING_TERM_LIMIT + 1;
  for (const term of terms) {
    const { n } = db
      .prepare(
        `SELECT COUNT(*) AS n FROM (SELECT 1 FROM trace_terms WHERE kind = ? AND value IN (${placeholders(term.values)}) LIMIT ?)`,
      )
      .get(term.kind, ...term.values, DRIVING_TERM_LIMIT + 1) as { n: number };
    if (Number(n) < bestCount) {
      best = term;
      bestCount = Number(n);
    }
  }
  return best;
}

function placeholders(values: readonly unknown[]): string {
  return values.map(() => '?').join(', ');
}
