/**
 * Reads the bytes of an attachment or a recorded file at creation: exactly one of `data` (bytes,
 * base64 or a `data:` URL, at most 25 MiB) or `path` (a regular file of at most 1 GB). A file of at
 * most 25 MiB is read into memory; a larger one is hashed from disk with one 1 MiB buffer and
 * streamed from disk at upload (it must stay unchanged until then). Never throws.
 * @module
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { systemErrorCode } from '../../diagnostics/system-error-code.js';
import type { FileSource } from '../media-types.js';
import { MAX_DATA_BYTES, MAX_FILE_BYTES, SLICE_BYTES } from '../media-types.js';
import { decodeData } from './decode-data.js';

/** Where the bytes come from: exactly one of the two. */
export interface FileInput {
  /** Bytes, a base64 string or a `data:` URL; at most 25 MiB decoded. */
  data?: Uint8Array | string;
  /** A regular file of at most 1 GB; it must stay unchanged until the upload. */
  path?: string;
}

/** The bytes read, or why they could not be. */
export type ReadFileInput =
  | { sha256: string; size: number; source: FileSource; declaredType: string | undefined }
  | { problem: string };

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Hashes a file with one reusable buffer; `undefined` when it changed meanwhile or is unreadable
 * (both expected: the file is the application's, and the problem is reported as such).
 */
function hashFile(path: string, size: number, mtimeMs: number): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const hash = createHash('sha256');
    const buffer = Buffer.allocUnsafe(SLICE_BYTES);
    let total = 0;
    for (;;) {
      const read = readSync(fd, buffer, 0, SLICE_BYTES, total);
      if (read === 0) break;
      total += read;
      hash.update(buffer.subarray(0, read));
    }
    const after = fstatSync(fd);
    if (total !== size || after.size !== size || after.mtimeMs !== mtimeMs) return undefined;
    return hash.digest('hex');
  } catch {
    return undefined; // unreadable: the caller's problem says so
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Why a file could not be read: its system error code (`ENOENT`, `EACCES`…), never its path. */
function unreadable(what: string, error: unknown): string {
  const code = systemErrorCode(error);
  return `the ${what} file could not be read${code === undefined ? '' : ` (${code})`}`;
}

function readPath(path: string, what: string): ReadFileInput {
  const absolute = resolve(path);
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(absolute);
  } catch (error) {
    return { problem: unreadable(what, error) };
  }
  if (!stat.isFile()) return { problem: `the ${what} path is not a regular file` };
  if (stat.size > MAX_FILE_BYTES) return { problem: `the ${what} file is over 1 GB` };
  if (stat.size <= MAX_DATA_BYTES) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(absolute);
    } catch (error) {
      return { problem: unreadable(what, error) };
    }
    if (bytes.length > MAX_DATA_BYTES) return { problem: `the ${what} file changed while it was read` };
    return {
      sha256: sha256(bytes),
      size: bytes.length,
      source: { kind: 'bytes', bytes },
      declaredType: undefined,
    };
  }
  const digest = hashFile(absolute, stat.size, stat.mtimeMs);
  if (digest === undefined)
    return { problem: `the ${what} file could not be read, or changed while it was read` };
  return {
    sha256: digest,
    size: stat.size,
    source: { kind: 'path', path: absolute, size: stat.size, mtimeMs: stat.mtimeMs },
    declaredType: undefined,
  };
}

/** Reads `input` for an attachment or a recorded file (`what` names it in problems). */
export function readFileInput(input: FileInput, what: string): ReadFileInput {
  const hasData = input.data !== undefined;
  const hasPath = input.path !== undefined;
  if (hasData === hasPath) return { problem: `${what} needs exactly one of data or path` };
  if (hasPath) {
    if (typeof input.path !== 'string' || input.path === '') {
      return { problem: `the ${what} path must be a nonempty string` };
    }
    return readPath(input.path, what);
  }
  const decoded = decodeData(input.data, MAX_DATA_BYTES);
  if ('problem' in decoded) {
    return {
      problem:
        decoded.problem === 'too-large'
          ? `the ${what} data is over 25 MiB`
          : `the ${what} data is not bytes, base64 or a data: URL`,
    };
  }
  return {
    sha256: sha256(decoded.bytes),
    size: decoded.bytes.byteLength,
    source: { kind: 'bytes', bytes: decoded.bytes },
    declaredType: decoded.declaredType,
  };
}
