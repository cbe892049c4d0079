/**
 * The uploader: files admitted at export upload in the background, 4 at a time, each by reserve →
 * PUT → complete against the service's upload routes (each step tried up to 3 times), within a
 * deadline of six export timeouts plus 60 s in queue. The same bytes in the same trace upload
 * once. A file that cannot upload never fails anything: it counts as a fallback.
 *
 * Admission happens while a record is prepared for export, in a {@link UploadBatch}: the record's
 * files are offered (budget, dedupe and the uploader's state decide), then committed once the
 * record holds their references, or cancelled.
 * @module
 */
import { stat } from 'node:fs/promises';
import { describeFailure } from '../../diagnostics/describe-failure.js';
import { reportFailure } from '../../diagnostics/report-failure.js';
import { systemErrorCode } from '../../diagnostics/system-error-code.js';
import { serviceErrorCode } from '../../http/service-error-code.js';
import type { Dispatcher } from '../../http/undici.js';
import { type FoundFile, UPLOAD_BUDGET_BYTES } from '../media-types.js';
import { readReservation } from './read-reservation.js';
import { uploadBody } from './upload-body.js';
import { heldBytes, UploadBudget } from './upload-budget.js';
import { postJson, putBytes, type UploadAnswer } from './upload-http.js';
import type { UploadJob, UploadOrigin, UploadRefusal, UploadSink } from './upload-job.js';
import {
  type Sleep,
  type StepOutcome,
  sleep as timerSleep,
  UPLOAD_ATTEMPTS,
  withUploadRetries,
} from './upload-retry.js';
import { UploadSourceError } from './upload-source-error.js';

/** Uploads in flight at once. */
export const UPLOAD_CONCURRENCY = 4;
/** The part of an upload's deadline allowed for waiting in the queue. */
export const UPLOAD_QUEUE_MILLIS = 60_000;
/** Upload deadlines per export timeout (`timeoutMillis`). */
export const UPLOAD_TIMEOUTS_PER_DEADLINE = 6;
/** The reservation route, below the service origin. */
export const RESERVE_PATH = '/api/v1/otlp/blobs';
/** The completion route, below the service origin. */
export const COMPLETE_PATH = '/api/v1/otlp/blobs/complete';
/** Stored (trace, digest) pairs remembered to skip a second upload; older ones are forgotten. */
const REMEMBERED_STORED = 4_096;

/** The deadline of one upload, from the moment it is queued. */
export function uploadDeadlineMillis(timeoutMillis: number): number {
  return UPLOAD_TIMEOUTS_PER_DEADLINE * timeoutMillis + UPLOAD_QUEUE_MILLIS;
}

/** Options of {@link Uploader}. */
export interface UploaderOptions {
  /** The service origin, without a trailing slash. */
  baseUrl: string;
  apiKey: string;
  /** The export timeout: each reservation and completion attempt; the deadline is derived from it. */
  timeoutMillis: number;
  /** The transport's keep-alive connection pool. */
  dispatcher: Dispatcher;
  sink: UploadSink;
  /** Default {@link UPLOAD_CONCURRENCY}. */
  concurrency?: number;
  /** Default `UPLOAD_BUDGET_BYTES` (128 MiB). */
  budgetBytes?: number;
  /** The deadline of each upload from when it is queued; default {@link uploadDeadlineMillis}. */
  deadlineMillis?: number;
  /** The wait between attempts (tests replace it to observe the waits asked for). */
  sleep?: Sleep;
}

/** Offers of one record's files; see {@link Uploader.batch}. */
export interface UploadBatch {
  /**
   * Admits `job` for upload (or finds its bytes already stored or on their way under that
   * trace); returns why not when refused. `held`, a charge of {@link Uploader.hold} taken for the
   * file while its record waited for export, is taken over by the upload or given back: the
   * caller never gives it back itself.
   */
  offer(job: UploadJob, held?: number): UploadRefusal | undefined;
  /** Queues the admitted files. */
  commit(): void;
  /** Gives back what the admitted files held of the budget; nothing is uploaded. */
  cancel(): void;
}

type Result = { stored: true } | { stored: false; reason: string };

interface Ticket {
  job: UploadJob;
  key: string;
  charge: number;
  /** Further references to the same bytes in the same trace, admitted without a second upload. */
  followers: number;
}

interface Task extends Ticket {
  controller: AbortController;
  timer: NodeJS.Timeout;
  started: boolean;
  settled: boolean;
  done: Promise<void>;
  finish: () => void;
}

/** Words of the contract's upload error codes that may appear in an issue message. */
const KNOWN_CODES = new Set([
  'invalid_request',
  'payload_too_large',
  'already_stored',
  'link_expired',
  'forbidden',
  'unauthorized',
  'size_mismatch',
  'digest_mismatch',
  'not_uploaded',
  'not_found',
  'rate_limited',
  'unavailable',
]);

function refusedBy(step: string, answer: UploadAnswer): string {
  const code = serviceErrorCode(answer.json);
  const shown = code !== undefined && KNOWN_CODES.has(code) ? ` ${code}` : '';
  return `the service refused the ${step} (HTTP ${answer.status}${shown})`;
}

/** Background uploads of one transport. */
export class Uploader {
  readonly #options: UploaderOptions;
  readonly #concurrency: number;
  readonly #budget: UploadBudget;
  readonly #sleep: Sleep;
  readonly #deadlineMillis: number;
  readonly #queue: Task[] = [];
  /** Tasks not settled yet, queued or running. */
  readonly #tasks = new Set<Task>();
  /** The unsettled task of each (trace, digest). */
  readonly #pending = new Map<string, Task>();
  /** (trace, digest) pairs stored, oldest first. */
  readonly #stored = new Set<string>();
  #running = 0;
  #closed = false;
  #routeMissing = false;

  constructor(options: UploaderOptions) {
    this.#options = options;
    this.#concurrency = options.concurrency ?? UPLOAD_CONCURRENCY;
    this.#budget = new UploadBudget(options.budgetBytes ?? UPLOAD_BUDGET_BYTES);
    this.#sleep = options.sleep ?? timerSleep;
    this.#deadlineMillis = options.deadlineMillis ?? uploadDeadlineMillis(options.timeoutMillis);
  }

  /** Why a file offered now would be refused whatever it is, or `undefined`. */
  refusal(): UploadRefusal | undefined {
    if (this.#closed) return 'closed';
    if (this.#routeMissing) return 'no-route';
    return undefined;
  }

  /** Bytes held in memory by admitted uploads not yet ended. */
  get heldBytes(): number {
    return this.#budget.used;
  }

  /** Uploads queued or running. */
  get pending(): number {
    return this.#tasks.size;
  }

  /**
   * Charges the budget for the bytes `file` keeps in memory while its record waits in the export
   * queue (an attachment's or recorded file's data): the charge to pass to
   * {@link UploadBatch.offer} or give back with {@link Uploader.release}, or `undefined` when
   * there is no room (the file should then let go of its bytes).
   */
  hold(file: FoundFile): number | undefined {
    return this.#budget.take(heldBytes(file.source, file.size));
  }

  /** Gives back a charge of {@link Uploader.hold} that no upload took over. */
  release(charge: number): void {
    this.#budget.give(charge);
  }

  /** Starts the offers of one record's files. */
  batch(): UploadBatch {
    const tickets = new Map<string, Ticket>();
    let ended = false;
    /** Admits `job`, charged `held` when given; also says whether `held` became its charge. */
    const admit = (job: UploadJob, held: number | undefined): [UploadRefusal | undefined, boolean] => {
      const refusal = this.refusal();
      if (refusal !== undefined) return [refusal, false];
      const key = `${job.traceId}/${job.file.sha256}`;
      const known = tickets.get(key);
      if (known !== undefined) {
        known.followers++;
        return [undefined, false];
      }
      if (this.#stored.has(key)) {
        this.#stored.delete(key);
        this.#stored.add(key);
        return [undefined, false];
      }
      if (this.#pending.has(key)) {
        tickets.set(key, { job, key, charge: 0, followers: 0 });
        return [undefined, false];
      }
      const charge = held ?? this.hold(job.file);
      if (charge === undefined) return ['budget', false];
      tickets.set(key, { job, key, charge, followers: 0 });
      return [undefined, held !== undefined];
    };
    return {
      offer: (job, held) => {
        const [refusal, charged] = admit(job, held);
        if (held !== undefined && !charged) this.#budget.give(held);
        return refusal;
      },
      commit: () => {
        if (ended) return;
        ended = true;
        for (const ticket of tickets.values()) this.#enqueue(ticket);
      },
      cancel: () => {
        if (ended) return;
        ended = true;
        for (const ticket of tickets.values()) this.#budget.give(ticket.charge);
      },
    };
  }

  /** Resolves once every upload queued before the call has ended (stored or fallen back). */
  async drain(): Promise<void> {
    await Promise.all([...this.#tasks].map((task) => task.done));
  }

  /** Refuses further files; uploads already admitted go on. */
  close(): void {
    this.#closed = true;
  }

  /** Refuses further files and ends every upload not yet done (they count as fallbacks). */
  abort(): void {
    this.#closed = true;
    for (const task of [...this.#tasks]) task.controller.abort('shutdown');
  }

  #enqueue(ticket: Ticket): void {
    const pending = this.#pending.get(ticket.key);
    if (pending !== undefined) {
      pending.followers += ticket.followers + 1;
      this.#budget.give(ticket.charge);
      return;
    }
    const controller = new AbortController();
    let finish!: () => void;
    const done = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const task: Task = {
      ...ticket,
      controller,
      timer: setTimeout(() => controller.abort('deadline'), this.#deadlineMillis).unref(),
      started: false,
      settled: false,
      done,
      finish,
    };
    controller.signal.addEventListener('abort', () => {
      if (task.started) return;
      const at = this.#queue.indexOf(task);
      if (at >= 0) this.#queue.splice(at, 1);
      this.#settle(task, { stored: false, reason: this.#abortReason(controller.signal) });
    });
    this.#tasks.add(task);
    this.#pending.set(task.key, task);
    this.#queue.push(task);
    this.#pump();
  }

  #pump(): void {
    while (this.#running < this.#concurrency && this.#queue.length > 0) {
      const task = this.#queue.shift()!;
      task.started = true;
      this.#running++;
      void this.#upload(task.job, task.controller.signal)
        .catch((error: unknown): Result => {
          // Every expected failure is a result of #upload: this is a defect. A fallback all the
          // same (an upload never fails the export), its cause told on diag and in the issue.
          reportFailure('error', 'a file upload failed unexpectedly', error);
          return { stored: false, reason: `the upload failed unexpectedly (${describeFailure(error)})` };
        })
        .then((result) => {
          this.#running--;
          this.#settle(task, result);
          this.#pump();
        });
    }
  }

  #settle(task: Task, result: Result): void {
    if (task.settled) return;
    task.settled = true;
    clearTimeout(task.timer);
    this.#budget.give(task.charge);
    this.#tasks.delete(task);
    if (this.#pending.get(task.key) === task) this.#pending.delete(task.key);
    const origin: UploadOrigin = task.job.origin ?? 'traces';
    if (result.stored) {
      this.#stored.add(task.key);
      if (this.#stored.size > REMEMBERED_STORED) this.#stored.delete(this.#stored.values().next().value!);
      this.#options.sink.uploaded(origin);
    } else {
      this.#options.sink.fallback(origin, 1 + task.followers, result.reason);
    }
    task.finish();
  }

  #abortReason(signal: AbortSignal): string {
    if (signal.reason === 'deadline') {
      return `the upload did not end within its deadline (${this.#deadlineMillis / 1000} s)`;
    }
    return 'the upload was ended by shutdown';
  }

  #failure(step: string, outcome: Exclude<StepOutcome, { kind: 'answer' }>, signal: AbortSignal): string {
    switch (outcome.kind) {
      case 'aborted':
        return this.#abortReason(signal);
      case 'source':
        return outcome.error.message;
      case 'no-answer':
        return `the service did not answer the ${step}${outcome.code ? ` (${outcome.code})` : ''} after ${UPLOAD_ATTEMPTS} attempts`;
    }
  }

  async #upload(job: UploadJob, signal: AbortSignal): Promise<Result> {
    const { baseUrl, apiKey, timeoutMillis, dispatcher } = this.#options;
    const { file, traceId } = job;
    if (file.source.kind === 'path') {
      // Checked before reserving as well as while streaming: a changed file costs no reservation.
      // A file removed or unreadable since it was recorded is an expected fallback, its system
      // error code in the issue.
      let unreadable: string | undefined;
      const current = await stat(file.source.path).catch((error: unknown) => {
        unreadable = systemErrorCode(error) ?? 'no code';
        return undefined;
      });
      const problem =
        current === undefined
          ? 'unreadable'
          : current.size !== file.source.size || current.mtimeMs !== file.source.mtimeMs
            ? 'changed'
            : undefined;
      if (problem !== undefined) {
        return { stored: false, reason: new UploadSourceError(problem, unreadable).message };
      }
    }
    const retries = { signal, sleep: this.#sleep };
    const reserve = await withUploadRetries(
      (attempt) =>
        postJson(
          `${baseUrl}${RESERVE_PATH}`,
          apiKey,
          { traceId, sha256: file.sha256, byteSize: file.size, contentType: file.contentType, key: file.key },
          { dispatcher, signal: attempt },
        ),
      { ...retries, timeoutMillis },
    );
    if (reserve.kind !== 'answer')
      return { stored: false, reason: this.#failure('reservation', reserve, signal) };
    const { status } = reserve.answer;
    if (status === 404 || status === 405) {
      this.#routeMissing = true;
      return { stored: false, reason: `the service has no upload route (HTTP ${status})` };
    }
    if (status !== 200) return { stored: false, reason: refusedBy('reservation', reserve.answer) };
    const reservation = readReservation(reserve.answer.json);
    if (reservation === undefined) {
      return { stored: false, reason: "the service's reservation answer is not valid" };
    }
    if (reservation.status === 'exists') return { stored: true };

    const put = await withUploadRetries(
      (attempt) =>
        putBytes(reservation.url, reservation.headers, uploadBody(file), { dispatcher, signal: attempt }),
      retries,
    );
    if (put.kind !== 'answer') return { stored: false, reason: this.#failure('upload', put, signal) };
    if (put.answer.status === 412) return { stored: true };
    if (put.answer.status < 200 || put.answer.status > 299) {
      return { stored: false, reason: refusedBy('upload', put.answer) };
    }

    const complete = await withUploadRetries(
      (attempt) =>
        postJson(
          `${baseUrl}${COMPLETE_PATH}`,
          apiKey,
          { traceId, sha256: file.sha256 },
          { dispatcher, signal: attempt },
        ),
      { ...retries, timeoutMillis },
    );
    if (complete.kind !== 'answer') {
      return { stored: false, reason: this.#failure('completion', complete, signal) };
    }
    const stored =
      complete.answer.status === 200 &&
      (complete.answer.json as { status?: unknown } | undefined)?.status === 'stored';
    return stored ? { stored: true } : { stored: false, reason: refusedBy('completion', complete.answer) };
  }
}
