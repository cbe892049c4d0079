/**
 * The request thread's handle on the writer thread (`sqlite-writer-worker`): sends each
 * request's rows and resolves once they are committed.
 * @module
 */
import { Worker } from 'node:worker_threads';
import type { WriterReply, WriterRequest } from './sqlite-writer-worker.js';
import type { WriteBatch } from './write-batch.js';

/** A write the writer thread could not store; nothing of its request was stored. */
export class StoreWriteError extends Error {
  override readonly name = 'StoreWriteError';
}

/** The worker file beside this module: `.ts` when running from source, `.js` from the build. */
function workerUrl(): URL {
  const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  return new URL(`./sqlite-writer-worker.${extension}`, import.meta.url);
}

/** Stores write batches through the writer thread, in the order they are given. */
export class SqliteWriter {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  #nextId = 1;
  #stopped: Error | undefined;
  #closed: Promise<void> | undefined;
  readonly #exited: Promise<void>;

  /** Starts the writer thread on the database at `path` (created and migrated already). */
  constructor(path: string) {
    this.#worker = new Worker(workerUrl(), { workerData: { path } });
    this.#worker.on('message', (reply: WriterReply) => {
      const waiter = this.#pending.get(reply.id);
      this.#pending.delete(reply.id);
      if (reply.type === 'written') waiter?.resolve();
      else waiter?.reject(new StoreWriteError(`storing the request failed (${reply.message})`));
    });
    this.#worker.on('error', (error) =>
      this.#stop(new StoreWriteError(`the writer thread failed (${error.name})`)),
    );
    this.#exited = new Promise((resolve) => {
      this.#worker.once('exit', () => {
        this.#stop(new StoreWriteError('the writer thread has stopped'));
        resolve();
      });
    });
  }

  /** Stores `batch` in one transaction; resolves when committed, rejects with {@link StoreWriteError}. */
  write(batch: WriteBatch): Promise<void> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ type: 'write', id, batch } satisfies WriterRequest);
    });
  }

  /** Stores what was already sent, then stops the writer thread. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      if (!this.#stopped) this.#worker.postMessage({ type: 'close' } satisfies WriterRequest);
      await this.#exited;
    })();
    return this.#closed;
  }

  #stop(error: Error): void {
    this.#stopped ??= error;
    for (const waiter of this.#pending.values()) waiter.reject(this.#stopped);
    this.#pending.clear();
  }
}
