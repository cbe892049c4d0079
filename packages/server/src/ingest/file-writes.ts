/**
 * Writes of media-file records, sent to the writer thread like ingest batches (so the writer
 * stays the only writing connection): flat tuples, cheap to hand to another thread.
 * @module
 */

/**
 * `[id, projectId, traceId, sha256, size, contentType, key, createdAt, expiresAt]`: a new upload
 * reservation (times in milliseconds since the epoch). Reservations expired before `createdAt`
 * are removed in the same transaction.
 */
export type ReservationRow = [
  id: string,
  projectId: string,
  traceId: string,
  sha256: string,
  size: number,
  contentType: string,
  key: string,
  createdAt: number,
  expiresAt: number,
];

/**
 * `[projectId, traceId, sha256, size, contentType, firstKey, storedAt]`: the trace holds the file.
 * A file the trace already holds keeps its first row.
 */
export type HeldFileRow = [
  projectId: string,
  traceId: string,
  sha256: string,
  size: number,
  contentType: string,
  firstKey: string,
  storedAt: number,
];

/** One write of media-file records. */
export type FileWrite = { op: 'reserve'; row: ReservationRow } | { op: 'hold'; row: HeldFileRow };
