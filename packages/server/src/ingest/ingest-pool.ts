/**
 * Decoder threads of the request thread: each request body goes, transferred not copied, to the
 * next decoder thread, which decodes it and hands its rows straight to the writer thread. The
 * request thread keeps only HTTP, so decoding and storing use the other cores.
 * @module
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, type Worker } from 'node:worker_threads';
import { MalformedExportError } from '../otlp/malformed-export-error.js';
import { StoreWriteError } from '../store/store-write-error.js';
import { startThread } from '../store/thread-options.js';
import type { IngestOutcome, OtlpEncoding, OtlpSignal } from './decode-request.js';
import type { DecoderReply, DecoderRequest } from './decoder-messages.js';
import type { SqliteWriter } from './sqlite-writer.js';

interface Waiter {
  resolve: (outcome: IngestOutcome) => void;
  reject: (error: Error) => void;
  outcome?: IngestOutcome;
}

/** A body the thread can take over: its own whole `ArrayBuffer`, never a view of a shared pool. */
function ownBuffer(body: Uint8Array): Uint8Array<ArrayBuffer> {
  const whole = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength;
  // `Buffer#slice` is a view; the Uint8Array constructor copies.
  return whole && body.buffer instanceof ArrayBuffer
    ? (body as Uint8Array<ArrayBuffer>)
    : new Uint8Array(body);
}

/** Decodes and stores export requests on decoder threads and the writer thread. */
export class IngestPool {
  readonly #workers: Worker[] = [];
  readonly #pending = new Map<number, Waiter>();
  readonly #inflight = new Set<Promise<IngestOutcome>>();
  #nextId = 1;
  #next = 0;
  #stopped: Error | undefined;

  /** Starts `threads` decoder threads (default: one per core, at most 4), connected to `writer`. */
  constructor(writer: SqliteWriter, threads = Math.min(4, availableParallelism())) {
    for (let i = 0; i < Math.max(1, threads); i++) {
      const { port1, port2 } = new MessageChannel();
      writer.connect(port1);
      const worker = startThread('decoder-loop', import.meta.url, { writerPort: port2 }, [port2]);
      worker.on('message', (reply: DecoderReply) => this.#settle(reply));
      worker.on('error', (error) =>
        this.#stop(new StoreWriteError(`a decoder thread failed (${error.name})`)),
      );
      worker.once('exit', () => this.#stop(new StoreWriteError('a decoder thread has stopped')));
      this.#workers.push(worker);
    }
    void writer.stopped.then((error) => this.#stop(error));
  }

  /**
   * Decodes and stores one request body. Resolves with the outcome once the accepted records are
   * committed; rejects with `MalformedExportError` (nothing stored) or `StoreWriteError`.
   */
  ingest(signal: OtlpSignal, encoding: OtlpEncoding, body: Uint8Array): Promise<IngestOutcome> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    const worker = this.#workers[this.#next++ % this.#workers.length]!;
    const owned = ownBuffer(body);
    const done = new Promise<IngestOutcome>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      const request: DecoderRequest = { type: 'decode', id, signal, encoding, body: owned };
      worker.postMessage(request, [owned.buffer]);
    });
    this.#inflight.add(done);
    const forget = () => this.#inflight.delete(done);
    done.then(forget, forget);
    return done;
  }

  /** Stops the decoder threads after the requests in flight settle. */
  async close(): Promise<void> {
    await Promise.allSettled(this.#inflight);
    this.#stopped ??= new StoreWriteError('the ingest pool is closed');
    await Promise.all(
      this.#workers.map(
        (worker) =>
          new Promise<void>((done) => {
            worker.once('exit', () => done());
            worker.postMessage({ type: 'close' } satisfies DecoderRequest);
          }),
      ),
    );
  }

  #settle(reply: DecoderReply): void {
    const waiter = this.#pending.get(reply.id);
    if (waiter === undefined) return;
    switch (reply.type) {
      case 'decoded':
        if (reply.stored) {
          waiter.outcome = reply.outcome;
          return;
        }
        this.#pending.delete(reply.id);
        waiter.resolve(reply.outcome);
        return;
      case 'written':
        this.#pending.delete(reply.id);
        waiter.resolve(waiter.outcome!);
        return;
      case 'malformed':
        this.#pending.delete(reply.id);
        waiter.reject(new MalformedExportError(reply.message));
        return;
      case 'failed':
        this.#pending.delete(reply.id);
        waiter.reject(new StoreWriteError(`storing the request failed (${reply.message})`));
    }
  }

  #stop(error: Error): void {
    this.#stopped ??= error;
    for (const waiter of this.#pending.values()) waiter.reject(this.#stopped);
    this.#pending.clear();
  }
}
