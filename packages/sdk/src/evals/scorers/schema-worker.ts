/**
 * Runs JSON Schema validations in a worker thread, one at a time, each bounded by its timeout.
 *
 * A validation can run away (a catastrophic `pattern` regular expression, `uniqueItems` over a huge
 * array): the worker is then terminated, which stops it mid-run, the validation ends as `timeout`,
 * and the next validation starts a fresh worker. A job's time counts from when the worker receives
 * it, so neither waiting behind other jobs nor the worker's start-up uses it up. One worker serves
 * the whole process; it keeps the process alive only while jobs are pending, and ends after
 * {@link SCHEMA_WORKER_IDLE_MILLIS} without work.
 * @module
 */

import { Worker } from 'node:worker_threads';
import { reportFailure } from '../../diagnostics/report-failure.js';
import { SCHEMA_WORKER_SCRIPT } from './schema-worker-script.js';

/** How long an idle worker is kept before it ends. */
export const SCHEMA_WORKER_IDLE_MILLIS = 10_000;

/** Validation errors reported per validation; `errorCount` gives the total. */
export const MAX_REPORTED_SCHEMA_ERRORS = 20;

/** One error of a failed validation, as ajv reports it (data paths are JSON pointers). */
export interface SchemaValidationError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  message: string;
}

/**
 * Which reading of the output a validation reports: the output value (`value`), a string output
 * read as JSON text (`json_text`), or a string output as the string it is (`string`).
 */
export type OutputReading = 'value' | 'json_text' | 'string';

/** How a validation ended. */
export type SchemaValidationOutcome =
  | { outcome: 'valid'; reading: OutputReading }
  | { outcome: 'invalid'; reading: OutputReading; errorCount: number; errors: SchemaValidationError[] }
  | { outcome: 'timeout' }
  | { outcome: 'failed'; errorName: string };

/** A compiled schema as the worker takes it: its standalone validation code, and an ID for it. */
export interface WorkerSchema {
  readonly id: number;
  readonly source: string;
}

interface Job {
  readonly id: number;
  readonly schema: WorkerSchema;
  readonly output: unknown;
  readonly timeoutMillis: number;
  readonly resolve: (outcome: SchemaValidationOutcome) => void;
}

type WorkerAnswer = { ready: true } | ({ job: number } & SchemaValidationOutcome);

/**
 * Starts a job's deadline: calls `expire` after `millis` unless the returned function cancels it
 * first. Tests give their own, so that a deadline expires when the test says, not when a loaded
 * machine gets round to it.
 */
export type StartDeadline = (millis: number, expire: () => void) => () => void;

const realDeadline: StartDeadline = (millis, expire) => {
  const timer = setTimeout(expire, millis);
  return () => clearTimeout(timer);
};

/** The worker and its queue; one instance serves the process ({@link validateInWorker}). */
export class SchemaWorker {
  #worker: Worker | undefined;
  #ready = false;
  #queue: Job[] = [];
  #running: { job: Job; cancelDeadline: () => void } | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #nextJobId = 1;
  readonly #startDeadline: StartDeadline;

  constructor(startDeadline: StartDeadline = realDeadline) {
    this.#startDeadline = startDeadline;
  }

  validate(schema: WorkerSchema, output: unknown, timeoutMillis: number): Promise<SchemaValidationOutcome> {
    return new Promise((resolve) => {
      this.#queue.push({ id: this.#nextJobId++, schema, output, timeoutMillis, resolve });
      this.#pump();
    });
  }

  #pump(): void {
    clearTimeout(this.#idleTimer);
    if (this.#running === undefined && this.#queue.length > 0) {
      const worker = this.#worker ?? this.#start();
      if (worker !== undefined && this.#ready) {
        const job = this.#queue.shift()!;
        const isString = typeof job.output === 'string';
        worker.postMessage({
          job: job.id,
          schemaId: job.schema.id,
          source: job.schema.source,
          text: isString ? job.output : JSON.stringify(job.output),
          isString,
        });
        const running = { job, cancelDeadline: () => {} };
        this.#running = running;
        running.cancelDeadline = this.#startDeadline(job.timeoutMillis, () => {
          if (this.#running === running) this.#timeOut();
        });
      }
    }
    const busy = this.#running !== undefined || this.#queue.length > 0;
    if (busy) {
      this.#worker?.ref();
    } else if (this.#worker !== undefined) {
      this.#worker.unref();
      this.#idleTimer = setTimeout(() => this.#stop(), SCHEMA_WORKER_IDLE_MILLIS);
      this.#idleTimer.unref();
    }
  }

  /** Starts a worker; when the runtime cannot, settles every waiting job as failed. */
  #start(): Worker | undefined {
    let worker: Worker;
    try {
      worker = new Worker(SCHEMA_WORKER_SCRIPT, {
        eval: true,
        workerData: { requireFrom: import.meta.url, maxErrors: MAX_REPORTED_SCHEMA_ERRORS },
      });
    } catch (error) {
      // The runtime could not start a worker: the jobs are scored `error` (WorkerStartError), the
      // cause told on diag.
      reportFailure('error', 'the JSON Schema scorer could not start its worker thread', error);
      this.#failWaiting('WorkerStartError');
      return undefined;
    }
    this.#worker = worker;
    this.#ready = false;
    worker.on('message', (answer: WorkerAnswer) => {
      if (worker !== this.#worker) return;
      if ('ready' in answer) {
        this.#ready = true;
      } else if (this.#running?.job.id === answer.job) {
        const { job: _job, ...outcome } = answer;
        this.#finish(outcome);
      }
      this.#pump();
    });
    // An uncaught error in the worker ends it; the exit handler settles the jobs.
    worker.on('error', () => {});
    worker.on('exit', () => {
      if (worker !== this.#worker) return;
      const started = this.#ready;
      this.#worker = undefined;
      this.#ready = false;
      if (this.#running !== undefined) this.#finish({ outcome: 'failed', errorName: 'WorkerExit' });
      // A worker that never started would fail again: settle every waiting job instead of looping.
      if (!started) this.#failWaiting('WorkerStartError');
      this.#pump();
    });
    return worker;
  }

  /** Ends the worker now; waiting and running jobs end as `failed` (`WorkerExit`). */
  close(): void {
    clearTimeout(this.#idleTimer);
    this.#failWaiting('WorkerExit');
    if (this.#running !== undefined) this.#finish({ outcome: 'failed', errorName: 'WorkerExit' });
    this.#stop();
  }

  #failWaiting(errorName: string): void {
    for (const job of this.#queue.splice(0)) job.resolve({ outcome: 'failed', errorName });
  }

  #finish(outcome: SchemaValidationOutcome): void {
    const running = this.#running!;
    running.cancelDeadline();
    this.#running = undefined;
    running.job.resolve(outcome);
  }

  #timeOut(): void {
    this.#stop();
    this.#finish({ outcome: 'timeout' });
    this.#pump();
  }

  #stop(): void {
    const worker = this.#worker;
    this.#worker = undefined;
    this.#ready = false;
    // Terminating interrupts running JavaScript, a backtracking regular expression included.
    // A worker that fails to terminate is gone all the same for the scorer (a new one starts).
    worker?.terminate().catch(() => {});
  }
}

const schemaWorker = new SchemaWorker();

/**
 * Validates an output (a JSON value) against a compiled schema in the process's schema worker,
 * within `timeoutMillis` of the worker receiving it. A string output is valid when its JSON reading
 * (if it is JSON text) or the string itself validates. Never rejects: every ending is an outcome.
 */
export function validateInWorker(
  schema: WorkerSchema,
  output: unknown,
  timeoutMillis: number,
): Promise<SchemaValidationOutcome> {
  return schemaWorker.validate(schema, output, timeoutMillis);
}
