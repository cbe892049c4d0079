/**
 * The body of an upload PUT, made from a file's source without holding a second copy of a large
 * file: bytes as they are; UTF-8 text, base64 strings and files on disk in slices of at most
 * `SLICE_BYTES`, encoded, decoded or read into two buffers used in turn; files on disk after
 * checking that their size and modification time are still the recorded ones, with the digest
 * checked while streaming.
 *
 * Why two buffers are enough: the body is an async iterable, and undici pulls the next slice only
 * once the socket has drained the previous one (a 1 MiB slice always exceeds the socket's
 * high-water mark), so a buffer is free again when its turn comes. Reusing them keeps a 1 GB
 * upload from leaving a gigabyte of garbage slices for the collector (and RSS) to carry. Were a
 * slice ever overwritten early, the service would refuse the body on its digest, and the file
 * would fall back: never a wrong file stored.
 * @module
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { systemErrorCode } from '../../diagnostics/system-error-code.js';
import type { FoundFile } from '../media-types.js';
import { SLICE_BYTES } from '../media-types.js';
import { BASE64_SLICE_UNITS } from '../scan/index.js';
import { UploadSourceError } from './upload-source-error.js';

/** UTF-16 code units encoded per slice (at most 3 bytes each, so at most `SLICE_BYTES` bytes). */
const UTF8_SLICE_UNITS = Math.floor(SLICE_BYTES / 3);

/** A PUT body: bytes, or slices pulled one at a time. */
export type UploadBody = Uint8Array | AsyncIterable<Uint8Array>;

/** Two slice buffers, handed out in turn. */
function buffers(): () => Buffer {
  const pair = [Buffer.allocUnsafe(SLICE_BYTES), Buffer.allocUnsafe(SLICE_BYTES)];
  let turn = 0;
  return () => pair[turn++ & 1]!;
}

/** The UTF-8 encoding of `text`, slice by slice, never splitting a surrogate pair. */
async function* utf8Slices(text: string, size: number): AsyncGenerator<Uint8Array> {
  const next = buffers();
  let total = 0;
  for (let at = 0; at < text.length; ) {
    let stop = Math.min(text.length, at + UTF8_SLICE_UNITS);
    const last = text.charCodeAt(stop - 1);
    if (stop < text.length && last >= 0xd800 && last <= 0xdbff) stop--;
    const buffer = next();
    const written = buffer.write(text.slice(at, stop), 0, 'utf8');
    total += written;
    if (total > size) throw new UploadSourceError('changed');
    yield buffer.subarray(0, written);
    at = stop;
  }
  if (total !== size) throw new UploadSourceError('changed');
}

/** The decoded bytes of base64 `text.slice(start, end)`, slice by slice. */
async function* base64Slices(
  text: string,
  start: number,
  end: number,
  size: number,
): AsyncGenerator<Uint8Array> {
  const next = buffers();
  let total = 0;
  for (let at = start; at < end; at += BASE64_SLICE_UNITS) {
    const buffer = next();
    const written = buffer.write(text.slice(at, Math.min(end, at + BASE64_SLICE_UNITS)), 0, 'base64');
    total += written;
    if (total > size) throw new UploadSourceError('changed');
    yield buffer.subarray(0, written);
  }
  if (total !== size) throw new UploadSourceError('changed');
}

/**
 * The slices of a file on disk, checked against the recorded size, modification time and SHA-256.
 * Each slice is held back until the next one is read, so a file found changed at its end fails
 * before its last byte is sent: the service never receives a complete wrong body.
 */
async function* fileSlices(file: FoundFile & { source: { kind: 'path' } }): AsyncGenerator<Uint8Array> {
  const { path, size, mtimeMs } = file.source;
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    // Expected (the file went away or its permissions changed): a fallback, its code in the issue.
    throw new UploadSourceError('unreadable', systemErrorCode(error));
  }
  try {
    const stat = await handle.stat();
    if (stat.size !== size || stat.mtimeMs !== mtimeMs) throw new UploadSourceError('changed');
    const next = buffers();
    const hash = createHash('sha256');
    let total = 0;
    let held: Uint8Array | undefined;
    for (;;) {
      const buffer = next();
      let read: number;
      try {
        ({ bytesRead: read } = await handle.read(buffer, 0, SLICE_BYTES, total));
      } catch (error) {
        throw new UploadSourceError('unreadable', systemErrorCode(error));
      }
      if (read === 0) break;
      total += read;
      if (total > size) throw new UploadSourceError('changed');
      const slice = buffer.subarray(0, read);
      hash.update(slice);
      if (held !== undefined) yield held;
      held = slice;
    }
    if (total !== size || hash.digest('hex') !== file.sha256) throw new UploadSourceError('changed');
    if (held !== undefined) yield held;
  } finally {
    // Closing a read-only handle that fails loses nothing: the outcome is already decided.
    await handle.close().catch(() => undefined);
  }
}

/**
 * A fresh PUT body for `file` (one per attempt). A sliced body fails with
 * {@link UploadSourceError} when the bytes are not the recorded ones.
 */
export function uploadBody(file: FoundFile): UploadBody {
  const { source } = file;
  switch (source.kind) {
    case 'bytes':
      return source.bytes;
    case 'utf8':
      return source.text.length <= UTF8_SLICE_UNITS
        ? Buffer.from(source.text, 'utf8')
        : utf8Slices(source.text, file.size);
    case 'base64':
      return source.end - source.start <= BASE64_SLICE_UNITS
        ? Buffer.from(source.text.slice(source.start, source.end), 'base64')
        : base64Slices(source.text, source.start, source.end, file.size);
    case 'path':
      return fileSlices(file as FoundFile & { source: typeof source });
  }
}
