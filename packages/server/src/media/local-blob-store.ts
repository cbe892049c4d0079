/**
 * The {@link BlobStore} on the local disk: each file at `<root>/<first two hex digits>/<sha256>`.
 * An upload streams to a temporary file in that same directory while it is hashed and counted
 * (memory stays bounded whatever the size), is refused as soon as it runs past its declared size,
 * and becomes the stored file only once verified: written through (`fsync`), renamed into place
 * (atomic), and the directory synced. A refused or failed upload leaves nothing behind.
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { type FileHandle, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { BlobBodyError } from './blob-body-error.js';
import type { BlobStore, ExpectedBlob, StoredBlob } from './blob-store.js';

/** The directory of the blob store inside the data directory. */
export const BLOBS_DIRECTORY = 'blobs';

const TEMP_FILE = /^\..*\.tmp$/;
const SHARD = /^[0-9a-f]{2}$/;

async function writeAll(handle: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.byteLength) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.byteLength - offset);
    offset += bytesWritten;
  }
}

async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    const info = await stat(path);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}

/** Content-addressed files under one directory (`<dataDir>/blobs`). */
export class LocalBlobStore implements BlobStore {
  readonly #root: string;

  /**
   * Uses (creating it, mode 0700) the directory `root`, and removes the temporary files of
   * uploads a previous process did not finish.
   */
  constructor(root: string) {
    this.#root = root;
    mkdirSync(root, { recursive: true, mode: 0o700 });
    for (const shard of readdirSync(root)) {
      if (!SHARD.test(shard)) continue;
      for (const name of readdirSync(join(root, shard))) {
        if (TEMP_FILE.test(name)) rmSync(join(root, shard, name), { force: true });
      }
    }
  }

  /** Where the file of `sha256` is (or would be) stored. */
  pathOf(sha256: string): string {
    return join(this.#root, sha256.slice(0, 2), sha256);
  }

  async put(expected: ExpectedBlob, body: AsyncIterable<Uint8Array>): Promise<{ created: boolean }> {
    const path = this.pathOf(expected.sha256);
    // Stored already: read and verify the body all the same, without writing it.
    const created = (await sizeOf(path)) !== expected.size;
    const directory = join(this.#root, expected.sha256.slice(0, 2));
    let temp: string | undefined;
    let handle: FileHandle | undefined;
    try {
      if (created) {
        const made = await mkdir(directory, { recursive: true, mode: 0o700 });
        if (made !== undefined) await syncDirectory(this.#root);
        temp = join(directory, `.${expected.sha256}.${randomBytes(6).toString('hex')}.tmp`);
        handle = await open(temp, 'wx', 0o600);
      }
      const hash = createHash('sha256');
      let size = 0;
      const chunks = body[Symbol.asyncIterator]();
      for (;;) {
        let step: IteratorResult<Uint8Array>;
        try {
          step = await chunks.next();
        } catch (error) {
          throw new BlobBodyError('size_mismatch', 'The body ended before its declared size was received.', {
            cause: error,
          });
        }
        if (step.done) break;
        size += step.value.byteLength;
        if (size > expected.size) {
          await chunks.return?.();
          throw new BlobBodyError(
            'size_mismatch',
            `The body is longer than the reserved ${expected.size} bytes.`,
          );
        }
        hash.update(step.value);
        if (handle) await writeAll(handle, step.value);
      }
      if (size !== expected.size) {
        throw new BlobBodyError(
          'size_mismatch',
          `The body has ${size} bytes; the reservation is for ${expected.size} bytes.`,
        );
      }
      if (hash.digest('hex') !== expected.sha256) {
        throw new BlobBodyError(
          'digest_mismatch',
          'The SHA-256 of the body differs from the reserved sha256.',
        );
      }
      if (handle && temp) {
        await handle.sync();
        await handle.close();
        handle = undefined;
        await rename(temp, path);
        temp = undefined;
        await syncDirectory(directory);
      }
      return { created };
    } finally {
      await handle?.close().catch(() => undefined);
      if (temp !== undefined) await rm(temp, { force: true }).catch(() => undefined);
    }
  }

  async open(sha256: string): Promise<StoredBlob | undefined> {
    let handle: FileHandle;
    try {
      handle = await open(this.pathOf(sha256), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      const info = await handle.stat();
      return { size: info.size, stream: handle.createReadStream() };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async isReadable(sha256: string, size: number): Promise<boolean> {
    try {
      const handle = await open(this.pathOf(sha256), 'r');
      try {
        const info = await handle.stat();
        return info.isFile() && info.size === size;
      } finally {
        await handle.close();
      }
    } catch {
      return false;
    }
  }
}
