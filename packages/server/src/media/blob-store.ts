/**
 * The storage interface for the bytes of media files. Files are named by the lowercase hex
 * SHA-256 of their bytes: a file used by several traces is stored once. The local-disk store
 * implements it; an S3-compatible store would implement the same.
 * @module
 */
import type { Readable } from 'node:stream';

/** What an upload must be: its digest and size, from the reservation. */
export interface ExpectedBlob {
  /** 64 lowercase hex characters. */
  sha256: string;
  size: number;
}

/** A stored file opened for reading. */
export interface StoredBlob {
  size: number;
  /** The bytes; closes the file when it ends or is destroyed. */
  stream: Readable;
}

/** Bytes of media files, content-addressed. */
export interface BlobStore {
  /**
   * Reads `body` to its end, verifying it against `expected` as it streams, and stores it when the
   * store does not hold the file whole yet. Rejects with `BlobBodyError` when the body is longer
   * (as soon as it is), shorter, or of another digest, or fails before its end: nothing of it is
   * kept. Resolves `{ created: false }` when the file was stored already (the body is still read
   * and verified).
   */
  put(expected: ExpectedBlob, body: AsyncIterable<Uint8Array>): Promise<{ created: boolean }>;
  /** Opens a stored file, or resolves `undefined` when there is none. Rejects when it cannot be read. */
  open(sha256: string): Promise<StoredBlob | undefined>;
  /** True when the file is stored whole (of `size` bytes) and readable. Never rejects. */
  isReadable(sha256: string, size: number): Promise<boolean>;
}
