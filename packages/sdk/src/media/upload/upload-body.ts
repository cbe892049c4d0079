/**
 * The body of an upload PUT, made from a file's source without holding a second copy of a large
 * file: bytes as they are, UTF-8 text and base64 strings encoded or decoded slice by slice
 * (`SLICE_BYTES`), files on disk streamed after checking that their size and modification time
 * are still the recorded ones, with the digest checked while streaming.
 * @module
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { FoundFile } from '../media-types.js';
import { SLICE_BYTES } from '../media-types.js';
import { BASE64_SLICE_UNITS, base64Slices } from '../scan/index.js';
import { UploadSourceError } from './upload-source-error.js';

/** UTF-16 code units encoded per slice (at most 3 bytes each, so at most `SLICE_BYTES` bytes). */
const UTF8_SLICE_UNITS = Math.floor(SLICE_BYTES / 3);

/** The UTF-8 encoding of `text`, slice by slice, never splitting a surrogate pair. */
export function* utf8Slices(text: string): Generator<Buffer> {
  for (let at = 0; at < text.length; ) {
    let stop = Math.min(text.length, at + UTF8_SLICE_UNITS);
    const last = text.charCodeAt(stop - 1);
    if (stop < text.length && last >= 0xd800 && last <= 0xdbff) stop--;
    yield Buffer.from(text.slice(at, stop), 'utf8');
    at = stop;
  }
}

/**
 * Passes `chunks` through, failing when their total is not `size` or they cannot be made (text
 * that is not base64).
 */
function* exactly(chunks: Iterable<Uint8Array>, size: number): Generator<Uint8Array> {
  let total = 0;
  try {
    for (const chunk of chunks) {
      total += chunk.byteLength;
      if (total > size) throw new UploadSourceError('changed');
      yield chunk;
    }
  } catch (error) {
    throw UploadSourceError.isInstance(error) ? error : new UploadSourceError('unreadable');
  }
  if (total !== size) throw new UploadSourceError('changed');
}

/**
 * The chunks of a file on disk, checked against the recorded size, modification time and SHA-256.
 * Each chunk is held back until the next one is read, so a file found changed at its end fails
 * before its last byte is sent: the service never receives a complete wrong body.
 */
async function* fileChunks(file: FoundFile & { source: { kind: 'path' } }): AsyncGenerator<Buffer> {
  const { path, size, mtimeMs } = file.source;
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch {
    throw new UploadSourceError('unreadable');
  }
  try {
    const stat = await handle.stat();
    if (stat.size !== size || stat.mtimeMs !== mtimeMs) throw new UploadSourceError('changed');
    const hash = createHash('sha256');
    let total = 0;
    let held: Buffer | undefined;
    for (;;) {
      const buffer = Buffer.allocUnsafe(SLICE_BYTES);
      let read: number;
      try {
        ({ bytesRead: read } = await handle.read(buffer, 0, SLICE_BYTES, total));
      } catch {
        throw new UploadSourceError('unreadable');
      }
      if (read === 0) break;
      total += read;
      if (total > size) throw new UploadSourceError('changed');
      const chunk = buffer.subarray(0, read);
      hash.update(chunk);
      if (held !== undefined) yield held;
      held = chunk;
    }
    if (total !== size || hash.digest('hex') !== file.sha256) throw new UploadSourceError('changed');
    if (held !== undefined) yield held;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * A fresh PUT body for `file` (one per attempt). A stream body fails with
 * {@link UploadSourceError} when the bytes are not the recorded ones.
 */
export function uploadBody(file: FoundFile): Uint8Array | Readable {
  const { source } = file;
  switch (source.kind) {
    case 'bytes':
      return source.bytes;
    case 'utf8':
      return source.text.length <= UTF8_SLICE_UNITS
        ? Buffer.from(source.text, 'utf8')
        : Readable.from(exactly(utf8Slices(source.text), file.size), { objectMode: false });
    case 'base64':
      return source.end - source.start <= BASE64_SLICE_UNITS
        ? Buffer.from(source.text.slice(source.start, source.end), 'base64')
        : Readable.from(exactly(base64Slices(source.text, source.start, source.end), file.size), {
            objectMode: false,
          });
    case 'path':
      return Readable.from(fileChunks(file as FoundFile & { source: typeof source }), { objectMode: false });
  }
}
