/**
 * The storage interface for media-file records: upload reservations, which trace holds which
 * file, and where stored spans and log records list files. The bytes themselves are kept by a
 * `BlobStore`. The embedded SQLite store implements it; a PostgreSQL store would implement the same.
 * @module
 */
import type { KeyValue } from '../otlp/model.js';

/** An upload reservation: what its signed PUT link may store, and until when (ms since epoch). */
export interface Reservation {
  id: string;
  traceId: string;
  sha256: string;
  size: number;
  contentType: string;
  /** The `svc.blobs` key the reservation named. */
  key: string;
  createdAt: number;
  expiresAt: number;
}

/** A file a trace holds: its bytes were uploaded under the trace and verified. */
export interface HeldFile {
  traceId: string;
  sha256: string;
  size: number;
  contentType: string;
  /** The `svc.blobs` key of the reservation that first stored it in this trace. */
  firstKey: string;
  /** When the trace first held it (ms since epoch). */
  storedAt: number;
}

/** Where a stored record lists files: raw values, parsed by `media/listed-files.ts`. */
export type FileListing =
  /** The `svc.blobs` attribute of a span or a correlated log record: its OTLP `AnyValue` as stored. */
  | { source: 'blobs'; record: 'span'; spanId: string; value: unknown }
  | { source: 'blobs'; record: 'log'; spanId: string; logTimeUnixNano: string; value: unknown }
  /** A `svc.file` event of a span: its attributes. */
  | { source: 'event'; record: 'span'; spanId: string; attributes: KeyValue[] };

/** Which records to read listings from. */
export interface ListingScope {
  /** Only this span and the log records correlated with it. */
  spanId?: string;
  /** Only records whose text mentions this digest (a fast prefilter; callers still match entries). */
  sha256?: string;
}

/** Durable media-file records of one project. */
export interface FileRecords {
  /** Stores a reservation (and drops expired ones). Resolves once durable. */
  reserve(reservation: Reservation): Promise<void>;
  /** The reservation with this ID, or `undefined`. */
  reservation(id: string): Reservation | undefined;
  /** Records that the trace holds the file (the first record wins). Resolves once durable. */
  hold(file: HeldFile): Promise<void>;
  /** The file of this digest the trace holds, or `undefined`. */
  heldFile(traceId: string, sha256: string): HeldFile | undefined;
  /** Every file the trace holds. */
  heldFiles(traceId: string): HeldFile[];
  /**
   * Where the trace's spans (in start order: `svc.blobs`, then `svc.file` events) and correlated
   * log records (in time order) list files.
   */
  listings(traceId: string, scope?: ListingScope): FileListing[];
}
