/**
 * The request thread's handle on the writer thread (`sqlite-writer-worker`): starts it, connects
 * decoder threads to it, and stops it.
 * @module
 */
import { type MessagePort, Worker } from 'node:worker_threads';
import type { WriterRequest } from './sqlite-writer-worker.js';
import { StoreWriteError } from './store-write-error.js';
import { THREAD_EXEC_ARGV, threadEntryUrl } from './thread-options.js';

/** The writer thread of an embedded store. */
export class SqliteWriter {
  readonly #worker: Worker;
  #closed: Promise<void> | undefined;
  #exited = false;
  /** Settles with the reason once the writer thread has stopped, for whatever reason. */
  readonly stopped: Promise<StoreWriteError>;

  /** Starts the writer thread on the database at `path` (created and migrated already). */
  constructor(path: string) {
    this.#worker = new Worker(threadEntryUrl('sqlite-writer-worker', import.meta.url), {
      workerData: { path },
      execArgv: [...THREAD_EXEC_ARGV],
    });
    let failure: StoreWriteError | undefined;
    this.#worker.on('error', (error) => {
      failure ??= new StoreWriteError(`the writer thread failed (${error.name})`);
    });
    this.stopped = new Promise((resolve) => {
      this.#worker.once('exit', () => {
        this.#exited = true;
        resolve(failure ?? new StoreWriteError('the writer thread has stopped'));
      });
    });
  }

  /** Hands the writer thread a port on which another thread (a decoder) sends its writes. */
  connect(port: MessagePort): void {
    this.#worker.postMessage({ type: 'connect', port } satisfies WriterRequest, [port]);
  }

  /** Stores what was already sent, then stops the writer thread. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      if (!this.#exited) this.#worker.postMessage({ type: 'close' } satisfies WriterRequest);
      await this.stopped;
    })();
    return this.#closed;
  }
}
