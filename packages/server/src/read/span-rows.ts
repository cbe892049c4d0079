/**
 * The read model's SQL for one span whole: the span, its events and links, its resource and
 * scope, and the log records correlated with it.
 * @module
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { AnyValue, KeyValue, LogRecordRecord, SpanEventRecord, SpanLinkRecord } from '../otlp/model.js';

/** A stored span with what it refers to. */
export interface StoredSpan {
  spanId: string;
  parentSpanId: string;
  traceState: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: KeyValue[];
  droppedAttributesCount: number;
  events: SpanEventRecord[];
  droppedEventsCount: number;
  links: SpanLinkRecord[];
  droppedLinksCount: number;
  statusCode: number;
  statusMessage: string;
  resource: KeyValue[];
  scope: { name: string; version: string; attributes: KeyValue[] };
  /** Facts from the trace index (`null` before the index read the span). */
  facts: {
    model: string | null;
    inputTokens: number | null;
    outputTokens: number | null;
    errorType: string | null;
    error: boolean;
  };
}

interface SpanRow {
  id: number;
  span_id: string;
  parent_span_id: string;
  trace_state: string;
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
  resource: string;
  scope_name: string;
  scope_version: string;
  scope_attributes: string;
  model: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  error_type: string | null;
  error: number | null;
}

/** Reads single spans. */
export class SpanRows {
  readonly #statements: Record<'span' | 'events' | 'links' | 'logs' | 'exists', StatementSync>;

  constructor(db: DatabaseSync) {
    const prepare = (sql: string) => db.prepare(sql);
    this.#statements = {
      span: prepare(
        `SELECT s.id, s.span_id, s.parent_span_id, s.trace_state, s.name, s.kind,
           CAST(s.start_time_unix_nano AS TEXT) AS start_time_unix_nano,
           CAST(s.end_time_unix_nano AS TEXT) AS end_time_unix_nano, s.attributes, s.dropped_attributes_count,
           s.dropped_events_count, s.dropped_links_count, s.status_code, s.status_message,
           r.attributes AS resource, sc.name AS scope_name, sc.version AS scope_version,
           sc.attributes AS scope_attributes,
           f.model, f.input_tokens, f.output_tokens, f.error_type, f.error
         FROM spans s JOIN resources r ON r.id = s.resource_id JOIN scopes sc ON sc.id = s.scope_id
           LEFT JOIN span_facts f ON f.span_row = s.id
         WHERE s.trace_no = ? AND s.span_id = ?`,
      ),
      exists: prepare('SELECT 1 AS found FROM spans WHERE trace_no = ? AND span_id = ?'),
      events: prepare(
        `SELECT CAST(time_unix_nano AS TEXT) AS time_unix_nano, name, attributes, dropped_attributes_count
         FROM span_events WHERE trace_no = ? AND span_id = ? ORDER BY position`,
      ),
      links: prepare(
        `SELECT linked_trace_id, linked_span_id, trace_state, flags, attributes, dropped_attributes_count
         FROM span_links WHERE trace_no = ? AND span_id = ? ORDER BY position`,
      ),
      logs: prepare(
        `SELECT CAST(time_unix_nano AS TEXT) AS time_unix_nano,
           CAST(observed_time_unix_nano AS TEXT) AS observed_time_unix_nano, severity_number, severity_text,
           event_name, body, attributes, dropped_attributes_count, flags, fields
         FROM log_records WHERE trace_no = ? AND span_id = ? ORDER BY time_unix_nano, id`,
      ),
    };
  }

  /** Span `spanId` of trace row `traceNo`, or `undefined`. */
  span(traceNo: number, spanId: string): StoredSpan | undefined {
    const row = this.#statements.span.get(traceNo, spanId) as unknown as SpanRow | undefined;
    if (row === undefined) return undefined;
    const events = (
      this.#statements.events.all(traceNo, spanId) as {
        time_unix_nano: string;
        name: string;
        attributes: string;
        dropped_attributes_count: number;
      }[]
    ).map((e) => ({
      timeUnixNano: e.time_unix_nano,
      name: e.name,
      attributes: parseList(e.attributes),
      droppedAttributesCount: e.dropped_attributes_count,
    }));
    const links = (
      this.#statements.links.all(traceNo, spanId) as {
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
      attributes: parseList(l.attributes),
      droppedAttributesCount: l.dropped_attributes_count,
    }));
    return {
      spanId: row.span_id,
      parentSpanId: row.parent_span_id,
      traceState: row.trace_state,
      name: row.name,
      kind: row.kind,
      startTimeUnixNano: row.start_time_unix_nano,
      endTimeUnixNano: row.end_time_unix_nano,
      attributes: parseList(row.attributes),
      droppedAttributesCount: row.dropped_attributes_count,
      events,
      droppedEventsCount: row.dropped_events_count,
      links,
      droppedLinksCount: row.dropped_links_count,
      statusCode: row.status_code,
      statusMessage: row.status_message,
      resource: parseList(row.resource),
      scope: {
        name: row.scope_name,
        version: row.scope_version,
        attributes: parseList(row.scope_attributes),
      },
      facts: {
        model: row.model,
        inputTokens: row.input_tokens === null ? null : Number(row.input_tokens),
        outputTokens: row.output_tokens === null ? null : Number(row.output_tokens),
        errorType: row.error_type,
        error: row.error === 1,
      },
    };
  }

  /** Whether span `spanId` of trace row `traceNo` is stored. */
  exists(traceNo: number, spanId: string): boolean {
    return this.#statements.exists.get(traceNo, spanId) !== undefined;
  }

  /** The log records correlated with span `spanId`, in time order. */
  logs(traceNo: number, traceId: string, spanId: string): LogRecordRecord[] {
    return (
      this.#statements.logs.all(traceNo, spanId) as {
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
      }[]
    ).map((row) => ({
      traceId,
      spanId,
      timeUnixNano: row.time_unix_nano,
      observedTimeUnixNano: row.observed_time_unix_nano,
      severityNumber: row.severity_number,
      severityText: row.severity_text,
      eventName: row.event_name,
      body: row.body === null ? null : (parseValue(row.body) as AnyValue | null),
      attributes: parseList(row.attributes),
      droppedAttributesCount: row.dropped_attributes_count,
      flags: row.flags,
      fields: row.fields,
    }));
  }
}

function parseValue(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return null;
  }
}

function parseList(json: string): KeyValue[] {
  const list = parseValue(json);
  return Array.isArray(list) ? (list as KeyValue[]) : [];
}
