/**
 * `traceOutline`: every span of a trace without its attribute values, and the trace's summary,
 * read from the stored spans and the trace index (span facts, services, sessions, users).
 * @module
 */
import type { ListedFile } from '../media/listed-files.js';
import type {
  ModelUsage,
  OutlineSpan,
  SpanKindName,
  SpanStatusName,
  TraceOutline,
  TraceSummaryView,
} from './read-model-types.js';
import type { OutlineRow, TraceRows } from './trace-rows.js';

const KINDS: readonly SpanKindName[] = [
  'UNSPECIFIED',
  'INTERNAL',
  'SERVER',
  'CLIENT',
  'PRODUCER',
  'CONSUMER',
];
const STATUSES: readonly SpanStatusName[] = ['UNSET', 'OK', 'ERROR'];
const STATUS_ERROR = 2;
const UNKNOWN_MODEL = '(unknown model)';

/** The most spans one outline page holds (and the default). */
export const MAX_OUTLINE_SPANS = 10_000;

/** Milliseconds between two decimal nanosecond times; 0 when `end` is before `start`. */
export function millisBetween(start: string, end: string): number {
  const nanos = BigInt(end) - BigInt(start);
  return nanos > 0n ? Number(nanos) / 1e6 : 0;
}

/** ISO 8601 of a decimal nanosecond time (millisecond precision). */
export function isoOf(unixNano: string): string {
  return new Date(Number(BigInt(unixNano) / 1_000_000n)).toISOString();
}

/**
 * The outline of trace `traceId` (row `traceNo`): its summary, over every span, and the page of
 * spans after `after` (a cursor from a previous page), at most `limit`. `listed` are the files the
 * trace's records list. The trace index must be up to date (`catchUpIndex`).
 */
export function traceOutline(
  traceId: string,
  traceNo: number,
  rows: TraceRows,
  listed: readonly ListedFile[],
  page: { after?: number; limit?: number } = {},
): TraceOutline {
  const spanRows = rows.spans(traceNo);
  const events = rows.eventCounts(traceNo);
  const logs = rows.logCounts(traceNo);
  const files = new Map<string, Set<string>>();
  for (const file of listed) {
    const keys = files.get(file.spanId) ?? new Set<string>();
    keys.add(`${file.record}:${file.logTimeUnixNano ?? ''}:${file.key}`);
    files.set(file.spanId, keys);
  }
  const ids = new Set(spanRows.map((row) => row.span_id));
  const spans = spanRows.map((row) =>
    outlineSpan(
      row,
      row.parent_span_id !== '' && ids.has(row.parent_span_id),
      events.get(row.span_id) ?? 0,
      logs.get(row.span_id) ?? 0,
      files.get(row.span_id)?.size ?? 0,
    ),
  );
  const logCount = [...logs.values()].reduce((a, b) => a + b, 0);
  const summary = summarize(traceId, spanRows, spans, rows.people(traceNo), logCount);
  const start = page.after ?? 0;
  const limit = Math.min(page.limit ?? MAX_OUTLINE_SPANS, MAX_OUTLINE_SPANS);
  const end = start + limit;
  return { summary, spans: spans.slice(start, end), nextCursor: end < spans.length ? String(end) : null };
}

/**
 * One span of an outline. `parentStored`: whether its parent is a span of the trace (a span whose
 * parent never arrived is shown as a root).
 */
export function outlineSpan(
  row: Omit<OutlineRow, 'id'>,
  parentStored: boolean,
  eventCount: number,
  logCount: number,
  fileCount: number,
): OutlineSpan {
  return {
    spanId: row.span_id,
    parentSpanId: parentStored ? row.parent_span_id : null,
    name: row.name,
    kind: KINDS[row.kind] ?? 'UNSPECIFIED',
    startTimeUnixNano: row.start_time_unix_nano,
    endTimeUnixNano: row.end_time_unix_nano,
    startTime: isoOf(row.start_time_unix_nano),
    durationMs: millisBetween(row.start_time_unix_nano, row.end_time_unix_nano),
    status: STATUSES[row.status_code] ?? 'UNSET',
    ...(row.model === null ? {} : { model: row.model }),
    ...(row.input_tokens === null ? {} : { inputTokens: Number(row.input_tokens) }),
    ...(row.output_tokens === null ? {} : { outputTokens: Number(row.output_tokens) }),
    ...(row.error_type === null ? {} : { errorType: row.error_type }),
    error: row.status_code === STATUS_ERROR || row.error === 1,
    eventCount,
    logCount,
    fileCount,
  };
}

function summarize(
  traceId: string,
  rows: readonly OutlineRow[],
  spans: readonly OutlineSpan[],
  people: { services: string[]; sessions: string[]; users: string[] },
  logCount: number,
): TraceSummaryView {
  let first: OutlineRow | undefined;
  let last: OutlineRow | undefined;
  const models = new Map<string, ModelUsage>();
  for (const row of rows) {
    if (first === undefined || BigInt(row.start_time_unix_nano) < BigInt(first.start_time_unix_nano))
      first = row;
    if (last === undefined || BigInt(row.end_time_unix_nano) > BigInt(last.end_time_unix_nano)) last = row;
  }
  for (const span of spans) {
    if (span.inputTokens === undefined && span.outputTokens === undefined) continue;
    const model = span.model ?? UNKNOWN_MODEL;
    const usage = models.get(model) ?? { model, inputTokens: 0, outputTokens: 0, calls: 0 };
    usage.inputTokens += span.inputTokens ?? 0;
    usage.outputTokens += span.outputTokens ?? 0;
    usage.calls += 1;
    models.set(model, usage);
  }
  const root = spans.find((span) => span.parentSpanId === null);
  const usage = [...models.values()];
  return {
    traceId,
    rootName: root?.name ?? null,
    startTime: first === undefined ? null : isoOf(first.start_time_unix_nano),
    startTimeUnixNano: first?.start_time_unix_nano ?? null,
    endTimeUnixNano: last?.end_time_unix_nano ?? null,
    durationMs: first && last ? millisBetween(first.start_time_unix_nano, last.end_time_unix_nano) : 0,
    spanCount: rows.length,
    errorCount: spans.filter((span) => span.error).length,
    logCount,
    inputTokens: usage.reduce((sum, model) => sum + model.inputTokens, 0),
    outputTokens: usage.reduce((sum, model) => sum + model.outputTokens, 0),
    models: usage,
    sessions: people.sessions,
    users: people.users,
    services: people.services,
  };
}
