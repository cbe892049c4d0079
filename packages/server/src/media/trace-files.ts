/**
 * The media files of traces: what a trace holds (records, and bytes on the blob store), what its
 * spans and log records list, and the state of each listed file. States are derived when read,
 * so a span exported before its file was uploaded shows the file stored once it is, and ingest
 * does no extra work for files.
 * @module
 */
import type { FileRecords, HeldFile, ListingScope } from '../ingest/file-records.js';
import type { BlobStore } from './blob-store.js';
import { type ListedFile, listedFiles } from './listed-files.js';

/** The state of a listed file (spec "Media file state"). */
export type FileState = 'stored' | 'not uploaded' | 'unavailable';

/** A file a span (or a log record correlated with it) lists, with its state. */
export interface SpanFileState extends ListedFile {
  /**
   * `stored`: the trace holds the bytes; `not uploaded`: not (yet) uploaded under the trace;
   * `unavailable`: recorded as stored, but the stored bytes cannot be read.
   */
  state: FileState;
}

/** A file the trace holds, and whether its bytes can be read now. */
export interface Holding {
  file: HeldFile;
  readable: boolean;
}

/** Reads and records the media files of traces. */
export class TraceFiles {
  /** The records (reservations, holdings, listings). */
  readonly records: FileRecords;
  /** The bytes. */
  readonly blobs: BlobStore;

  constructor(records: FileRecords, blobs: BlobStore) {
    this.records = records;
    this.blobs = blobs;
  }

  /** The file of `sha256` the trace (32 hex) holds, or `undefined`. */
  async holding(traceId: string, sha256: string): Promise<Holding | undefined> {
    const file = this.records.heldFile(traceId, sha256);
    if (file === undefined) return undefined;
    return { file, readable: await this.blobs.isReadable(sha256, file.size) };
  }

  /** The files the trace's records list (see `listedFiles`), limited to `scope`. */
  listed(traceId: string, scope: ListingScope = {}): ListedFile[] {
    const files = listedFiles(this.records.listings(traceId, scope));
    return scope.sha256 === undefined ? files : files.filter((f) => f.sha256 === scope.sha256);
  }

  /**
   * Each file listed by span `spanId` of trace `traceId` (both lowercase hex): its `svc.blobs`
   * entries, its `svc.file` events, and the entries of its correlated log records, with the state
   * of each.
   *
   * @example
   * ```ts
   * const files = await server.files.fileStates(traceId, spanId);
   * // [{ key: 'gen_ai.input.messages#/0/parts/1', sha256, size, contentType: 'image/png', name: null,
   * //    role: null, spanId, record: 'span', listed: true, state: 'stored' }]
   * ```
   */
  async fileStates(traceId: string, spanId: string): Promise<SpanFileState[]> {
    const files = this.listed(traceId, { spanId });
    if (files.length === 0) return [];
    const held = new Map(this.records.heldFiles(traceId).map((f) => [f.sha256, f]));
    const states = new Map<string, Promise<FileState>>();
    for (const { sha256 } of files) {
      if (states.has(sha256)) continue;
      const file = held.get(sha256);
      states.set(
        sha256,
        file === undefined
          ? Promise.resolve('not uploaded')
          : this.blobs.isReadable(sha256, file.size).then((ok) => (ok ? 'stored' : 'unavailable')),
      );
    }
    return Promise.all(files.map(async (file) => ({ ...file, state: await states.get(file.sha256)! })));
  }
}
