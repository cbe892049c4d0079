/**
 * {@link FileRecords} on the embedded SQLite store. Reads run on the request thread's connection;
 * writes go to the writer thread, the only writing connection, in its next group commit.
 * Listings are read with SQLite's JSON functions, so only the `svc.blobs` attribute of a record
 * (not its whole attribute list) reaches JavaScript.
 * @module
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { KeyValue } from '../otlp/model.js';
import type { FileListing, FileRecords, HeldFile, ListingScope, Reservation } from './file-records.js';
import type { SqliteWriter } from './sqlite-writer.js';

interface ReservationRow {
  id: string;
  trace_id: string;
  sha256: string;
  size: number;
  content_type: string;
  key: string;
  created_at: number;
  expires_at: number;
}

interface HeldFileRow {
  trace_id: string;
  sha256: string;
  size: number;
  content_type: string;
  first_key: string;
  stored_at: number;
}

function heldFile(row: HeldFileRow): HeldFile {
  return {
    traceId: row.trace_id,
    sha256: row.sha256,
    size: row.size,
    contentType: row.content_type,
    firstKey: row.first_key,
    storedAt: row.stored_at,
  };
}

const HELD_COLUMNS = 'trace_id, sha256, size, content_type, first_key, stored_at';

/** The media-file records of `projectId` in an open, migrated database. */
export class SqliteFileRecords implements FileRecords {
  readonly #writer: SqliteWriter;
  readonly #projectId: string;
  readonly #sql: Record<
    'reservation' | 'heldFile' | 'heldFiles' | 'spanBlobs' | 'spanEvents' | 'logBlobs',
    StatementSync
  >;

  constructor(db: DatabaseSync, writer: SqliteWriter, projectId: string) {
    this.#writer = writer;
    this.#projectId = projectId;
    const prepare = (sql: string) => db.prepare(sql);
    this.#sql = {
      reservation: prepare(
        `SELECT id, trace_id, sha256, size, content_type, key, created_at, expires_at
         FROM blob_reservations WHERE id = ? AND project_id = ?`,
      ),
      heldFile: prepare(
        `SELECT ${HELD_COLUMNS} FROM trace_files WHERE project_id = ? AND trace_id = ? AND sha256 = ?`,
      ),
      heldFiles: prepare(
        `SELECT ${HELD_COLUMNS} FROM trace_files WHERE project_id = ? AND trace_id = ? ORDER BY stored_at, sha256`,
      ),
      // `instr` skips records that cannot list a match before their attributes are parsed: the
      // candidates are chosen first (a materialized CTE), so SQLite never parses a record's
      // attributes (maybe a 50 MB value) with `json_each` unless its text mentions the needle.
      spanBlobs: prepare(
        `WITH candidates AS MATERIALIZED (
           SELECT span_id, start_time_unix_nano, id, attributes FROM spans
           WHERE trace_no = (SELECT trace_no FROM traces WHERE trace_id = :trace)
             AND (:span IS NULL OR span_id = :span) AND instr(attributes, :needle) > 0)
         SELECT s.span_id, CAST(s.start_time_unix_nano AS TEXT) AS start, s.id AS row,
           json_extract(a.value, '$.value') AS value
         FROM candidates s, json_each(s.attributes) a
         WHERE json_extract(a.value, '$.key') = 'svc.blobs'
         ORDER BY s.start_time_unix_nano, s.id`,
      ),
      spanEvents: prepare(
        `SELECT e.span_id, CAST(s.start_time_unix_nano AS TEXT) AS start, s.id AS row, e.attributes
         FROM span_events e JOIN spans s ON s.trace_no = e.trace_no AND s.span_id = e.span_id
         WHERE e.trace_no = (SELECT trace_no FROM traces WHERE trace_id = :trace) AND (:span IS NULL OR e.span_id = :span) AND e.name = 'svc.file'
           AND instr(e.attributes, :needle) > 0
         ORDER BY s.start_time_unix_nano, s.id, e.position`,
      ),
      logBlobs: prepare(
        `WITH candidates AS MATERIALIZED (
           SELECT span_id, time_unix_nano, id, attributes FROM log_records
           WHERE trace_no = (SELECT trace_no FROM traces WHERE trace_id = :trace)
             AND (:span IS NULL OR span_id = :span) AND instr(attributes, :needle) > 0)
         SELECT l.span_id, CAST(l.time_unix_nano AS TEXT) AS time, json_extract(a.value, '$.value') AS value
         FROM candidates l, json_each(l.attributes) a
         WHERE json_extract(a.value, '$.key') = 'svc.blobs'
         ORDER BY l.time_unix_nano, l.id`,
      ),
    };
  }

  reserve(r: Reservation): Promise<void> {
    return this.#writer.writeFile({
      op: 'reserve',
      row: [
        r.id,
        this.#projectId,
        r.traceId,
        r.sha256,
        r.size,
        r.contentType,
        r.key,
        r.createdAt,
        r.expiresAt,
      ],
    });
  }

  reservation(id: string): Reservation | undefined {
    const row = this.#sql.reservation.get(id, this.#projectId) as ReservationRow | undefined;
    if (row === undefined) return undefined;
    return {
      id: row.id,
      traceId: row.trace_id,
      sha256: row.sha256,
      size: row.size,
      contentType: row.content_type,
      key: row.key,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    };
  }

  hold(f: HeldFile): Promise<void> {
    return this.#writer.writeFile({
      op: 'hold',
      row: [this.#projectId, f.traceId, f.sha256, f.size, f.contentType, f.firstKey, f.storedAt],
    });
  }

  heldFile(traceId: string, sha256: string): HeldFile | undefined {
    const row = this.#sql.heldFile.get(this.#projectId, traceId, sha256) as HeldFileRow | undefined;
    return row === undefined ? undefined : heldFile(row);
  }

  heldFiles(traceId: string): HeldFile[] {
    return (this.#sql.heldFiles.all(this.#projectId, traceId) as unknown as HeldFileRow[]).map(heldFile);
  }

  listings(traceId: string, scope: ListingScope = {}): FileListing[] {
    const span = scope.spanId ?? null;
    const listings: FileListing[] = [];
    // Per span, in start order: its `svc.blobs`, then its `svc.file` events.
    const spans = new Map<number, { start: bigint; listings: FileListing[] }>();
    const add = (row: { start: string; row: number }, listing: FileListing) => {
      const entry = spans.get(row.row) ?? { start: BigInt(row.start), listings: [] };
      entry.listings.push(listing);
      spans.set(row.row, entry);
    };
    const spanBlobs = this.#sql.spanBlobs.all({
      trace: traceId,
      span,
      needle: scope.sha256 ?? '"svc.blobs"',
    }) as { span_id: string; start: string; row: number; value: string | null }[];
    for (const row of spanBlobs) {
      add(row, { source: 'blobs', record: 'span', spanId: row.span_id, value: parse(row.value) });
    }
    const spanEvents = this.#sql.spanEvents.all({
      trace: traceId,
      span,
      needle: scope.sha256 ?? 'svc.file.sha256',
    }) as { span_id: string; start: string; row: number; attributes: string }[];
    for (const row of spanEvents) {
      const attributes = JSON.parse(row.attributes) as KeyValue[];
      add(row, { source: 'event', record: 'span', spanId: row.span_id, attributes });
    }
    const ordered = [...spans.entries()].sort(([rowA, a], [rowB, b]) =>
      a.start < b.start ? -1 : a.start > b.start ? 1 : rowA - rowB,
    );
    for (const [, entry] of ordered) listings.push(...entry.listings);
    const logBlobs = this.#sql.logBlobs.all({
      trace: traceId,
      span,
      needle: scope.sha256 ?? '"svc.blobs"',
    }) as { span_id: string; time: string; value: string | null }[];
    for (const row of logBlobs) {
      listings.push({
        source: 'blobs',
        record: 'log',
        spanId: row.span_id,
        logTimeUnixNano: row.time,
        value: parse(row.value),
      });
    }
    return listings;
  }
}

function parse(text: string | null): unknown {
  return text === null ? null : JSON.parse(text);
}
