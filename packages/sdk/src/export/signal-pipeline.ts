/**
 * The export path of one signal: a bounded queue (2,048 records, in-flight exports included),
 * batches of up to 512 records sent one at a time, every 1 s or as soon as a batch is full, and
 * the settlement of every record in exactly one counter.
 * @module
 */
import { RecordRejectedError } from '../content/record-rejected-error.js';
import { describeFailure } from '../diagnostics/describe-failure.js';
import { reportFailure } from '../diagnostics/report-failure.js';
import type { ExportAccounting, Signal } from './export-accounting.js';
import type { SendResult } from './otlp-http-sender.js';
import { readAcknowledgement } from './read-acknowledgement.js';

/** Records per signal held in memory, exports in flight included. */
export const QUEUE_CAPACITY = 2_048;
/** Records per export request. */
export const MAX_BATCH_SIZE = 512;
/** Longest wait before queued records are sent. */
export const SCHEDULE_DELAY_MILLIS = 1_000;

/**
 * What a pipeline is built from. `Q` is what is queued (a record as it ended, or as captured
 * then), `R` the record exported.
 */
export interface SignalPipelineOptions<Q, R = Q> {
  signal: Signal;
  accounting: ExportAccounting;
  /** The content policy: returns the record to export, or throws `RecordRejectedError`. */
  prepare: (record: Q) => R;
  /** OTLP serialization of a batch. */
  serialize: (records: R[]) => Uint8Array | undefined;
  /** Sends a serialized batch (with retries); never rejects. */
  send: (body: Uint8Array) => Promise<SendResult>;
  /** Called with each record that will not be exported: dropped, or rejected by `prepare`. */
  dropped?: (record: Q) => void;
}

const NOUNS: Record<Signal, string> = { traces: 'spans', logs: 'log records' };

function failureMessage(
  result: Extract<SendResult, { kind: 'failed' }>,
  count: number,
  noun: string,
): string {
  const lost = `${count} ${noun} not exported`;
  switch (result.cause) {
    case 'aborted':
      return `${lost}: the export was ended by shutdown`;
    case 'timeout':
      return `${lost}: the service did not answer within the timeout, after retries`;
    case 'network':
      return `${lost}: the service could not be reached${result.code ? ` (${result.code})` : ''}, after retries`;
    case 'defect':
      return `${lost}: the export request failed unexpectedly (${result.code ?? 'Error'})`;
    case 'http':
      if (result.status === 401) {
        return `${lost}: the service refused the key (HTTP 401); use a valid, unrevoked project key`;
      }
      if (result.status === 403) {
        return `${lost}: the key may not ingest (HTTP 403); use a Tracing key, not a Read key`;
      }
      if (result.status === 404 || result.status === 405) {
        return `${lost}: no OTLP route there (HTTP ${result.status}); baseUrl must be the service origin without a path`;
      }
      return `${lost}: the service answered HTTP ${result.status}`;
  }
}

/** Queue, batching and accounting of one signal. */
export class SignalPipeline<Q, R = Q> {
  readonly #options: SignalPipelineOptions<Q, R>;
  readonly #noun: string;
  #queue: Q[] = [];
  #inFlight = 0;
  #loop: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: SignalPipelineOptions<Q, R>) {
    this.#options = options;
    this.#noun = NOUNS[options.signal];
  }

  /** Records queued or being exported. */
  get pending(): number {
    return this.#queue.length + this.#inFlight;
  }

  /** Queues a record; drops (and counts) it when the queue is full or the pipeline is shut down. */
  add(record: Q): void {
    const { accounting, signal } = this.#options;
    if (this.#closed || this.pending >= QUEUE_CAPACITY) {
      accounting.dropped(signal);
      this.#options.dropped?.(record);
      return;
    }
    accounting.queued(signal);
    this.#queue.push(record);
    if (this.#queue.length >= MAX_BATCH_SIZE) this.#start();
    else this.#timer ??= setTimeout(() => this.#start(), SCHEDULE_DELAY_MILLIS).unref();
  }

  /** Exports everything queued (and what arrives meanwhile); resolves once all of it settled. */
  async flush(): Promise<void> {
    this.#start();
    while (this.#loop !== undefined) await this.#loop;
    this.#options.accounting.reportDrops(this.#options.signal);
  }

  /** Flushes, then refuses further records (they are dropped and counted). */
  async shutdown(): Promise<void> {
    await this.flush();
    this.#closed = true;
  }

  #start(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#loop !== undefined || this.#queue.length === 0) return;
    this.#loop = this.#run().finally(() => {
      this.#loop = undefined;
    });
  }

  async #run(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, MAX_BATCH_SIZE);
      this.#inFlight = batch.length;
      try {
        await this.#export(batch);
      } finally {
        this.#inFlight = 0;
      }
    }
  }

  async #export(records: Q[]): Promise<void> {
    const { accounting, signal, prepare, serialize, send } = this.#options;
    accounting.reportDrops(signal);
    const prepared: R[] = [];
    const one = this.#noun.replace(/s$/, '');
    for (const record of records) {
      try {
        prepared.push(prepare(record));
      } catch (error) {
        this.#options.dropped?.(record);
        if (RecordRejectedError.isInstance(error)) {
          accounting.settle(signal, { rejected: 1 });
          accounting.raise(signal, 'rejected', 1, `1 ${one} rejected: ${error.message}`);
          continue;
        }
        // A defect of the export path: the record is lost, counted, and the cause told.
        reportFailure('error', `1 ${one} not exported: preparing it for export failed`, error);
        accounting.settle(signal, { failed: 1 });
        accounting.raise(
          signal,
          'failed',
          1,
          `1 ${one} not exported: preparing it for export failed (${describeFailure(error)})`,
        );
      }
    }
    const n = prepared.length;
    if (n === 0) return;
    let body: Uint8Array | undefined;
    let why = 'the serializer gave no body';
    try {
      body = serialize(prepared);
    } catch (error) {
      reportFailure('error', `${n} ${this.#noun} not exported: OTLP serialization failed`, error);
      why = describeFailure(error);
    }
    if (body === undefined) {
      accounting.settle(signal, { failed: n });
      accounting.raise(
        signal,
        'failed',
        n,
        `${n} ${this.#noun} not exported: they could not be serialized as OTLP (${why})`,
      );
      return;
    }
    const result = await send(body);
    if (result.kind === 'failed') {
      accounting.settle(signal, { failed: n });
      accounting.raise(signal, 'failed', n, failureMessage(result, n, this.#noun), result.status);
      return;
    }
    const ack = readAcknowledgement(signal, result.body);
    if (ack === undefined || ack.rejected > n) {
      accounting.settle(signal, { failed: n });
      accounting.raise(
        signal,
        'invalid',
        n,
        `${n} ${this.#noun} of unknown fate: the service's acknowledgement is not an OTLP export response`,
        result.status,
      );
      return;
    }
    accounting.settle(signal, { accepted: n - ack.rejected, rejected: ack.rejected });
    if (ack.rejected > 0) {
      accounting.raise(
        signal,
        'rejected',
        ack.rejected,
        `the service rejected ${ack.rejected} of ${n} ${this.#noun}`,
      );
    } else if (ack.warning) {
      accounting.raise(signal, 'warning', 0, `the service accepted ${n} ${this.#noun} with a warning`);
    }
  }
}
