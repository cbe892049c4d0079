/**
 * The files of trace snapshots. Which files a snapshot has is read from its own copies of the
 * trace's records (their `svc.blobs` entries and `svc.file` events), never from the live trace, so
 * spans written to the trace later add or change nothing. When the snapshot is taken, one row per
 * listed file (table `eval_trace_snapshot_files`) records whether the trace held its bytes then.
 *
 * Bytes are content-addressed and nothing erases them (nor a trace's holding of them) today, so a
 * file the trace held when the snapshot was taken stays readable through the snapshot. The rows
 * are what a later erasure of trace files must consult to keep snapshot copies: a file with a row
 * whose `stored_at` is set must keep its bytes and its trace's holding (or be re-homed). A file
 * listed but not held at snapshot time (its upload still in flight) is read from the trace's
 * holding when it arrives later; snapshots taken before the table existed have no rows and are
 * read the same way.
 * @module
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { FileRecords } from '../../ingest/file-records.js';
import { type ListedFile, listedFiles } from '../../media/listed-files.js';
import { recordListings } from '../../media/record-listings.js';
import type { LogRecordRecord, SpanRecord } from '../../otlp/model.js';

/** The stored bytes of a file: what the download needs. */
export interface StoredBytes {
  size: number;
  contentType: string;
}

/** What a snapshot says of one file. */
export interface SnapshotFile {
  /** The snapshot's trace (32 hex): the download reads the bytes it holds. */
  traceId: string;
  /** The snapshot's records listing the file (within the span asked for, when one was). */
  listed: ListedFile[];
  /** The stored bytes, or `undefined` when they were never stored for the trace. */
  stored: StoredBytes | undefined;
}

interface FileRow {
  size: number | null;
  content_type: string | null;
}

/** Records and reads the files of trace snapshots. */
export class SnapshotFiles {
  readonly #records: FileRecords | undefined;
  readonly #insert: StatementSync;
  readonly #find: StatementSync;

  /**
   * `db` is the registry's database; `records` the media-file records of the project (without
   * them, as in a registry served without media files, nothing is recorded or held).
   */
  constructor(db: DatabaseSync, records: FileRecords | undefined) {
    this.#records = records;
    this.#insert = db.prepare(
      `INSERT OR IGNORE INTO eval_trace_snapshot_files (snapshot_id, sha256, size, content_type, stored_at)
       VALUES (?, ?, ?, ?, ?)`,
    );
    this.#find = db.prepare(
      'SELECT size, content_type FROM eval_trace_snapshot_files WHERE snapshot_id = ? AND sha256 = ?',
    );
  }

  /**
   * Records, for snapshot `snapshotId` of trace `traceId`, each file its copied `spans` and `logs`
   * list and whether the trace holds its bytes now. Runs in the caller's transaction.
   */
  record(
    snapshotId: string,
    traceId: string,
    spans: readonly SpanRecord[],
    logs: readonly LogRecordRecord[],
  ): void {
    if (this.#records === undefined) return;
    const digests = new Set(listedFiles(recordListings(spans, logs)).map((file) => file.sha256));
    if (digests.size === 0) return;
    const held = new Map(this.#records.heldFiles(traceId).map((file) => [file.sha256, file]));
    for (const sha256 of digests) {
      const file = held.get(sha256);
      this.#insert.run(
        snapshotId,
        sha256,
        file?.size ?? null,
        file?.contentType ?? null,
        file?.storedAt ?? null,
      );
    }
  }

  /**
   * What snapshot `snapshot` (its ID, trace and copied records) says of file `sha256`, answered
   * like the trace's download-link route: `listed` holds the copies listing it (only span
   * `spanId` and its correlated log records, when given: they name the file); `stored` its bytes,
   * as recorded when the snapshot was taken, else as the trace holds them now, and `undefined`
   * when no copy in the whole snapshot lists the file.
   */
  find(
    snapshot: { id: string; traceId: string; spans: readonly SpanRecord[]; logs: readonly LogRecordRecord[] },
    sha256: string,
    spanId: string | undefined,
  ): SnapshotFile {
    const everywhere = listedFiles(recordListings(snapshot.spans, snapshot.logs, { sha256 })).filter(
      (file) => file.sha256 === sha256,
    );
    const listed = spanId === undefined ? everywhere : everywhere.filter((file) => file.spanId === spanId);
    if (everywhere.length === 0) return { traceId: snapshot.traceId, listed, stored: undefined };
    const row = this.#find.get(snapshot.id, sha256) as FileRow | undefined;
    const stored =
      row !== undefined && row.size !== null && row.content_type !== null
        ? { size: Number(row.size), contentType: row.content_type }
        : this.#records?.heldFile(snapshot.traceId, sha256);
    return { traceId: snapshot.traceId, listed, stored };
  }
}
