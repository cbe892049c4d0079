/**
 * The embedded {@link TraceStore}: SQLite through `node:sqlite`. Each request's records are
 * written in one transaction, so a request is stored whole or not at all.
 * @module
 */
import { hash, randomUUID } from 'node:crypto';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type {
  DecodedExport,
  KeyValue,
  LogRecordRecord,
  ResourceRecord,
  ScopeRecord,
  SpanRecord,
} from '../otlp/model.js';
import { inTransaction } from './sqlite-database.js';
import type { TraceStore, TraceSummary } from './trace-store.js';

const MAX_CACHED_DIGESTS = 10_000;

interface SpanRow {
  trace_id: string;
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
  trace_id: string;
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
  readonly #db: DatabaseSync;
  readonly #digestIds = new Map<string, number>();
  readonly #statements: Record<string, StatementSync>;

  constructor(db: DatabaseSync) {
    this.#db = db;
    const prepare = (sql: string) => db.prepare(sql);
    this.#statements = {
      findResource: prepare('SELECT id FROM resources WHERE digest = ?'),
      insertResource: prepare(
        'INSERT INTO resources (digest, attributes, dropped_attributes_count, schema_url) VALUES (?, ?, ?, ?) RETURNING id',
      ),
      findScope: prepare('SELECT id FROM scopes WHERE digest = ?'),
      insertScope: prepare(
        'INSERT INTO scopes (digest, name, version, attributes, dropped_attributes_count, schema_url) VALUES (?, ?, ?, ?, ?, ?) RETURNING id',
      ),
      traceExists: prepare('SELECT 1 FROM traces WHERE trace_id = ?'),
      touchTrace: prepare(
        `INSERT INTO traces (trace_id, id, revision, created_at, updated_at) VALUES (?, ?, 1, ?, ?)
         ON CONFLICT (trace_id) DO UPDATE SET revision = revision + 1, updated_at = excluded.updated_at`,
      ),
      upsertSpan: prepare(
        `INSERT INTO spans (trace_id, span_id, parent_span_id, trace_state, flags, name, kind,
           start_time_unix_nano, end_time_unix_nano, attributes, dropped_attributes_count,
           dropped_events_count, dropped_links_count, status_code, status_message, fields, resource_id, scope_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (trace_id, span_id) DO UPDATE SET
           parent_span_id = excluded.parent_span_id, trace_state = excluded.trace_state, flags = excluded.flags,
           name = excluded.name, kind = excluded.kind, start_time_unix_nano = excluded.start_time_unix_nano,
           end_time_unix_nano = excluded.end_time_unix_nano, attributes = excluded.attributes,
           dropped_attributes_count = excluded.dropped_attributes_count,
           dropped_events_count = excluded.dropped_events_count, dropped_links_count = excluded.dropped_links_count,
           status_code = excluded.status_code, status_message = excluded.status_message, fields = excluded.fields,
           resource_id = excluded.resource_id, scope_id = excluded.scope_id`,
      ),
      deleteEvents: prepare('DELETE FROM span_events WHERE trace_id = ? AND span_id = ?'),
      deleteLinks: prepare('DELETE FROM span_links WHERE trace_id = ? AND span_id = ?'),
      insertEvent: prepare(
        `INSERT INTO span_events (trace_id, span_id, position, time_unix_nano, name, attributes, dropped_attributes_count)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertLink: prepare(
        `INSERT INTO span_links (trace_id, span_id, position, linked_trace_id, linked_span_id, trace_state, flags,
           attributes, dropped_attributes_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertLog: prepare(
        `INSERT INTO log_records (trace_id, span_id, time_unix_nano, observed_time_unix_nano, severity_number,
           severity_text, event_name, body, attributes, dropped_attributes_count, flags, fields, resource_id, scope_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      traceSummary: prepare(
        `SELECT t.id, t.revision,
           (SELECT COUNT(*) FROM spans s WHERE s.trace_id = t.trace_id) AS span_count
         FROM traces t WHERE t.trace_id = ?`,
      ),
      spanFields: prepare('SELECT DISTINCT fields FROM spans WHERE trace_id = ?'),
      logFields: prepare("SELECT DISTINCT fields FROM log_records WHERE trace_id = ? AND trace_id <> ''"),
      spanIdsOfTrace: prepare('SELECT span_id FROM spans WHERE trace_id = ? AND span_id = ?'),
      listSpans: prepare(
        `SELECT trace_id, span_id, parent_span_id, trace_state, flags, name, kind,
           CAST(start_time_unix_nano AS TEXT) AS start_time_unix_nano,
           CAST(end_time_unix_nano AS TEXT) AS end_time_unix_nano, attributes, dropped_attributes_count,
           dropped_events_count, dropped_links_count, status_code, status_message, fields
         FROM spans WHERE trace_id = ? ORDER BY start_time_unix_nano, id`,
      ),
      listEvents: prepare(
        `SELECT CAST(time_unix_nano AS TEXT) AS time_unix_nano, name, attributes, dropped_attributes_count
         FROM span_events WHERE trace_id = ? AND span_id = ? ORDER BY position`,
      ),
      listLinks: prepare(
        `SELECT linked_trace_id, linked_span_id, trace_state, flags, attributes, dropped_attributes_count
         FROM span_links WHERE trace_id = ? AND span_id = ? ORDER BY position`,
      ),
      listLogs: prepare(
        `SELECT trace_id, span_id, CAST(time_unix_nano AS TEXT) AS time_unix_nano,
           CAST(observed_time_unix_nano AS TEXT) AS observed_time_unix_nano, severity_number, severity_text,
           event_name, body, attributes, dropped_attributes_count, flags, fields
         FROM log_records WHERE trace_id = ? AND trace_id <> '' ORDER BY time_unix_nano, id`,
      ),
    };
  }

  writeSpans(batch: DecodedExport<SpanRecord>): void {
    if (batch.accepted === 0) return;
    const s = this.#statements;
    this.#write(() => {
      const existing = this.#existingTraces(batch.groups.flatMap((g) => g.records.map((r) => r.traceId)));
      for (const group of batch.groups) {
        const resourceId = this.#resourceId(group.resource);
        const scopeId = this.#scopeId(group.scope);
        for (const span of group.records) {
          s.upsertSpan!.run(
            span.traceId,
            span.spanId,
            span.parentSpanId,
            span.traceState,
            span.flags,
            span.name,
            span.kind,
            BigInt(span.startTimeUnixNano),
            BigInt(span.endTimeUnixNano),
            JSON.stringify(span.attributes),
            span.droppedAttributesCount,
            span.droppedEventsCount,
            span.droppedLinksCount,
            span.statusCode,
            span.statusMessage,
            span.fields,
            resourceId,
            scopeId,
          );
          if (existing.get(span.traceId)) {
            s.deleteEvents!.run(span.traceId, span.spanId);
            s.deleteLinks!.run(span.traceId, span.spanId);
          }
          span.events.forEach((e, position) => {
            s.insertEvent!.run(
              span.traceId,
              span.spanId,
              position,
              BigInt(e.timeUnixNano),
              e.name,
              JSON.stringify(e.attributes),
              e.droppedAttributesCount,
            );
          });
          span.links.forEach((l, position) => {
            s.insertLink!.run(
              span.traceId,
              span.spanId,
              position,
              l.traceId,
              l.spanId,
              l.traceState,
              l.flags,
              JSON.stringify(l.attributes),
              l.droppedAttributesCount,
            );
          });
        }
      }
      this.#touchTraces(existing.keys());
    });
  }

  writeLogs(batch: DecodedExport<LogRecordRecord>): void {
    if (batch.accepted === 0) return;
    const s = this.#statements;
    this.#write(() => {
      const touched = new Set<string>();
      for (const group of batch.groups) {
        const resourceId = this.#resourceId(group.resource);
        const scopeId = this.#scopeId(group.scope);
        for (const log of group.records) {
          if (log.traceId !== '') touched.add(log.traceId);
          s.insertLog!.run(
            log.traceId,
            log.spanId,
            BigInt(log.timeUnixNano),
            BigInt(log.observedTimeUnixNano),
            log.severityNumber,
            log.severityText,
            log.eventName,
            log.body === null ? null : JSON.stringify(log.body),
            JSON.stringify(log.attributes),
            log.droppedAttributesCount,
            log.flags,
            log.fields,
            resourceId,
            scopeId,
          );
        }
      }
      this.#touchTraces(touched);
    });
  }

  getTraceSummary(traceId: string): TraceSummary | undefined {
    const row = this.#statements.traceSummary!.get(traceId) as
      | { id: string; revision: number; span_count: number }
      | undefined;
    if (row === undefined) return undefined;
    let fields = 0;
    for (const r of this.#statements.spanFields!.all(traceId) as { fields: number }[]) fields |= r.fields;
    for (const r of this.#statements.logFields!.all(traceId) as { fields: number }[]) fields |= r.fields;
    return { traceId, serviceTraceId: row.id, spanCount: row.span_count, revision: row.revision, fields };
  }

  findSpanIds(traceId: string, spanIds: readonly string[]): Set<string> {
    const found = new Set<string>();
    for (const spanId of spanIds) {
      if (this.#statements.spanIdsOfTrace!.get(traceId, spanId) !== undefined) found.add(spanId);
    }
    return found;
  }

  listSpans(traceId: string): SpanRecord[] {
    const s = this.#statements;
    return (s.listSpans!.all(traceId) as unknown as SpanRow[]).map((row) => ({
      traceId: row.trace_id,
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
        s.listEvents!.all(traceId, row.span_id) as {
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
        s.listLinks!.all(traceId, row.span_id) as {
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

  listLogs(traceId: string): LogRecordRecord[] {
    return (this.#statements.listLogs!.all(traceId) as unknown as LogRow[]).map((row) => ({
      traceId: row.trace_id,
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

  /** Runs one write transaction; after a rollback, cached resource and scope IDs may be gone. */
  #write(work: () => void): void {
    try {
      inTransaction(this.#db, work);
    } catch (error) {
      this.#digestIds.clear();
      throw error;
    }
  }

  /** Maps each distinct trace ID to whether the trace was already stored. */
  #existingTraces(traceIds: readonly string[]): Map<string, boolean> {
    const existing = new Map<string, boolean>();
    for (const traceId of traceIds) {
      if (!existing.has(traceId)) {
        existing.set(traceId, this.#statements.traceExists!.get(traceId) !== undefined);
      }
    }
    return existing;
  }

  #touchTraces(traceIds: Iterable<string>): void {
    const now = Date.now();
    for (const traceId of traceIds) this.#statements.touchTrace!.run(traceId, randomUUID(), now, now);
  }

  #resourceId(resource: ResourceRecord): number {
    const attributes = JSON.stringify(resource.attributes);
    const digest = `${hash('sha256', `${attributes}\u0000${resource.droppedAttributesCount}\u0000${resource.schemaUrl}`)}`;
    return this.#digestId(digest, this.#statements.findResource!, () =>
      this.#statements.insertResource!.get(
        digest,
        attributes,
        resource.droppedAttributesCount,
        resource.schemaUrl,
      ),
    );
  }

  #scopeId(scope: ScopeRecord): number {
    const attributes = JSON.stringify(scope.attributes);
    const digest = hash(
      'sha256',
      [scope.name, scope.version, attributes, scope.droppedAttributesCount, scope.schemaUrl].join('\u0000'),
    );
    return this.#digestId(`s:${digest}`, this.#statements.findScope!, () =>
      this.#statements.insertScope!.get(
        `s:${digest}`,
        scope.name,
        scope.version,
        attributes,
        scope.droppedAttributesCount,
        scope.schemaUrl,
      ),
    );
  }

  #digestId(digest: string, find: StatementSync, insert: () => unknown): number {
    const cached = this.#digestIds.get(digest);
    if (cached !== undefined) return cached;
    const row = (find.get(digest) ?? insert()) as { id: number };
    if (this.#digestIds.size >= MAX_CACHED_DIGESTS) this.#digestIds.clear();
    this.#digestIds.set(digest, row.id);
    return row.id;
  }
}
