/**
 * The request thread's handle on the writer thread (`sqlite-writer-worker`) and its checkpoint
 * thread (`sqlite-checkpointer-worker`): starts them, connects decoder threads to the writer,
 * sends it the request thread's own (media-file) writes, and stops both.
 * @module
 */
import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import { StoreWriteError } from '../store/store-write-error.js';
import { startThread } from '../store/thread-options.js';
import type { FileWrite } from './file-writes.js';
import type { CheckpointerRequest } from './sqlite-checkpointer-worker.js';
import type { WriterReply, WriterRequest } from './sqlite-writer-worker.js';

/** The writer thread of an embedded store. */
export class SqliteWriter {
  readonly #worker: Worker;
  readonly #checkpointer: Worker;
  readonly #checkpointerExited: Promise<void>;
  #closed: Promise<void> | undefined;
  #exited = false;
  #nextId = 1;
  readonly #pending = new Map<number, { resolve: () => void; reject: (error: StoreWriteError) => void }>();
  /** Settles with the reason once the writer thread has stopped, for whatever reason. */
  readonly stopped: Promise<StoreWriteError>;

  /** Starts the writer and checkpoint threads on the database at `path` (created and migrated already). */
  constructor(path: string) {
    const { port1: writerCommits, port2: checkpointerCommits } = new MessageChannel();
    this.#checkpointer = startThread(
      'sqlite-checkpointer-worker',
      import.meta.url,
      { path, commits: checkpointerCommits },
      [checkpointerCommits],
    );
    // Without the checkpoint thread the writer's own checkpoints still keep the WAL in bounds.
    this.#checkpointer.on('error', () => {});
    this.#checkpointerExited = new Promise((done) => this.#checkpointer.once('exit', () => done()));
    this.#worker = startThread('sqlite-writer-worker', import.meta.url, { path, commits: writerCommits }, [
      writerCommits,
    ]);
    let failure: StoreWriteError | undefined;
    this.#worker.on('error', (error) => {
      failure ??= new StoreWriteError(`the writer thread failed (${error.name})`);
    });
    this.#worker.on('message', (reply: WriterReply) => {
      const waiter = this.#pending.get(reply.id);
      if (waiter === undefined) return;
      this.#pending.delete(reply.id);
      if (reply.type === 'written') waiter.resolve();
      else waiter.reject(new StoreWriteError(`the writer thread failed (${reply.message})`));
    });
    this.stopped = new Promise((resolve) => {
      this.#worker.once('exit', () => {
        this.#exited = true;
        const reason = failure ?? new StoreWriteError('the writer thread has stopped');
        for (const waiter of this.#pending.values()) waiter.reject(reason);
        this.#pending.clear();
        resolve(reason);
      });
    });
  }

  /**
   * Stores a media-file record write in the writer's next transaction. Resolves once committed;
   * rejects with `StoreWriteError` when it failed or the writer has stopped.
   */
  writeFile(write: FileWrite): Promise<void> {
    if (this.#exited || this.#closed !== undefined) {
      return Promise.reject(new StoreWriteError('the writer thread has stopped'));
    }
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ type: 'file', id, write } satisfies WriterRequest);
    });
  }

  /**
   * Brings the trace index up to date with every span stored so far (the writer thread indexes
   * in small steps between writes). Rejects with `StoreWriteError` when indexing failed or the
   * writer has stopped.
   */
  catchUpIndex(): Promise<void> {
    if (this.#exited || this.#closed !== undefined) {
      return Promise.reject(new StoreWriteError('the writer thread has stopped'));
    }
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ type: 'index', id } satisfies WriterRequest);
    });
  }

  /** Hands the writer thread a port on which another thread (a decoder) sends its writes. */
  connect(port: MessagePort): void {
    this.#worker.postMessage({ type: 'connect', port } satisfies WriterRequest, [port]);
  }

  /** Stores what was already sent, then stops the writer thread and the checkpoint thread. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      if (!this.#exited) this.#worker.postMessage({ type: 'close' } satisfies WriterRequest);
      await this.stopped;
      this.#checkpointer.postMessage({ type: 'close' } satisfies CheckpointerRequest);
      await this.#checkpointerExited;
    })();
    return this.#closed;
  }
}
