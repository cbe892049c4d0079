/**
 * `traceOutline`: every span of a trace without its attribute values, and the trace's summary.
 * @module
 */
import type { ListedFile } from '../media/listed-files.js';
import type { KeyValue, SpanEventRecord } from '../otlp/model.js';
import { attributeMap, stringOf } from './attribute-values.js';
import type {
  ModelUsage,
  OutlineSpan,
  SpanKindName,
  SpanStatusName,
  TraceOutline,
  TraceSummaryView,
} from './read-model-types.js';
import { type SpanFacts, spanFacts } from './span-facts.js';
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
  const millis = Number(BigInt(unixNano) / 1_000_000n);
  return new Date(millis).toISOString();
}

/** What the outline needs beside the rows. */
export interface OutlineSources {
  rows: TraceRows;
  /** The files the trace's records list (spans, their events and correlated logs). */
  listed: readonly ListedFile[];
  /** The `service.name` of a resource row. */
  serviceOf(resourceId: number): string | undefined;
}

/**
 * The outline of trace `traceId` (row `traceNo`): its summary, over every span, and the page of
 * spans after `after` (a cursor from a previous page), at most `limit`.
 */
export function traceOutline(
  traceId: string,
  traceNo: number,
  sources: OutlineSources,
  page: { after?: number; limit?: number } = {},
): TraceOutline {
  const rows = sources.rows.spans(traceNo);
  const events = sources.rows.eventCounts(traceNo);
  const exceptions = sources.rows.exceptionEvents(traceNo);
  const logs = sources.rows.logCounts(traceNo);
  const files = new Map<string, Set<string>>();
  for (const file of sources.listed) {
    const keys = files.get(file.spanId) ?? new Set<string>();
    keys.add(`${file.record}:${file.logTimeUnixNano ?? ''}:${file.key}`);
    files.set(file.spanId, keys);
  }
  const ids = new Set(rows.map((row) => row.span_id));
  const facts = rows.map((row) =>
    spanFacts(parseList(row.attributes), exceptionEventsOf(exceptions.get(row.span_id) ?? [])),
  );
  const spans = rows.map((row, index) =>
    outlineSpan(
      facts[index]!,
      row,
      ids,
      events.get(row.span_id) ?? 0,
      logs.get(row.span_id) ?? 0,
      files.get(row.span_id)?.size ?? 0,
    ),
  );
  const summary = summarize(
    traceId,
    rows,
    spans,
    facts,
    sources,
    [...logs.values()].reduce((a, b) => a + b, 0),
  );
  const start = page.after ?? 0;
  const limit = Math.min(page.limit ?? MAX_OUTLINE_SPANS, MAX_OUTLINE_SPANS);
  const end = start + limit;
  return { summary, spans: spans.slice(start, end), nextCursor: end < spans.length ? String(end) : null };
}

function exceptionEventsOf(attributeLists: readonly string[]): SpanEventRecord[] {
  return attributeLists.map((text) => ({
    name: 'exception',
    timeUnixNano: '0',
    attributes: parseList(text),
    droppedAttributesCount: 0,
  }));
}

function outlineSpan(
  facts: SpanFacts,
  row: OutlineRow,
  ids: ReadonlySet<string>,
  eventCount: number,
  logCount: number,
  fileCount: number,
): OutlineSpan {
  const statusError = row.status_code === STATUS_ERROR;
  return {
    spanId: row.span_id,
    parentSpanId: row.parent_span_id !== '' && ids.has(row.parent_span_id) ? row.parent_span_id : null,
    name: row.name,
    kind: KINDS[row.kind] ?? 'UNSPECIFIED',
    startTimeUnixNano: row.start_time_unix_nano,
    endTimeUnixNano: row.end_time_unix_nano,
    startTime: isoOf(row.start_time_unix_nano),
    durationMs: millisBetween(row.start_time_unix_nano, row.end_time_unix_nano),
    status: STATUSES[row.status_code] ?? 'UNSET',
    ...(facts.model === undefined ? {} : { model: facts.model }),
    ...(facts.inputTokens === undefined ? {} : { inputTokens: facts.inputTokens }),
    ...(facts.outputTokens === undefined ? {} : { outputTokens: facts.outputTokens }),
    ...(facts.errorType === undefined ? {} : { errorType: facts.errorType }),
    error: statusError || facts.errorType !== undefined,
    eventCount,
    logCount,
    fileCount,
  };
}

function summarize(
  traceId: string,
  rows: readonly OutlineRow[],
  spans: readonly OutlineSpan[],
  facts: readonly SpanFacts[],
  sources: OutlineSources,
  logCount: number,
): TraceSummaryView {
  let first: OutlineRow | undefined;
  let last: OutlineRow | undefined;
  let root: OutlineSpan | undefined;
  const models = new Map<string, ModelUsage>();
  const sessions = new Set<string>();
  const users = new Set<string>();
  const services = new Set<string>();
  rows.forEach((row, index) => {
    const span = spans[index]!;
    if (first === undefined || BigInt(row.start_time_unix_nano) < BigInt(first.start_time_unix_nano))
      first = row;
    if (last === undefined || BigInt(row.end_time_unix_nano) > BigInt(last.end_time_unix_nano)) last = row;
    if (root === undefined && span.parentSpanId === null) root = span;
    if (span.inputTokens !== undefined || span.outputTokens !== undefined) {
      const model = span.model ?? UNKNOWN_MODEL;
      const usage = models.get(model) ?? { model, inputTokens: 0, outputTokens: 0, calls: 0 };
      usage.inputTokens += span.inputTokens ?? 0;
      usage.outputTokens += span.outputTokens ?? 0;
      usage.calls += 1;
      models.set(model, usage);
    }
    for (const id of facts[index]!.sessionIds) sessions.add(id);
    for (const id of facts[index]!.userIds) users.add(id);
    const service = sources.serviceOf(row.resource_id);
    if (service !== undefined) services.add(service);
  });
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
    sessions: [...sessions],
    users: [...users],
    services: [...services],
  };
}

/** The `service.name` of a stored resource attribute list (JSON text). */
export function serviceNameOf(attributesJson: string): string | undefined {
  return stringOf(attributeMap(parseList(attributesJson)).get('service.name'));
}

function parseList(json: string): KeyValue[] {
  try {
    const list: unknown = JSON.parse(json);
    return Array.isArray(list) ? (list as KeyValue[]) : [];
  } catch {
    return [];
  }
}
