/**
 * The memory budget of request bodies: how many bytes of request bodies a process holds at once.
 * A body read into memory (OTLP exports, evaluation JSON) is charged its declared length before it
 * is read (or, without one, its buffer as it grows), and stays charged until its request has been
 * answered; a body that does not fit is answered 503 with `Retry-After` (which OTLP exporters
 * retry). Uploads of files stream to disk and hold one chunk at a time: they are not charged.
 * @module
 */
import { ApiError } from './api-error.js';

/** The default budget: 128 MiB, two bodies of the largest size the service takes (64 MiB). */
export const DEFAULT_BODY_BUDGET_BYTES = 128 * 1024 * 1024;

/** Seconds a client refused for lack of budget is asked to wait. */
export const BODY_BUDGET_RETRY_AFTER_SECONDS = 1;

/** A number of bytes shared by every request body held at once. */
export class BodyBudget {
  /** The budget, in bytes. */
  readonly limit: number;
  #used = 0;

  constructor(limit: number) {
    if (!Number.isSafeInteger(limit) || limit < 1) {
      throw new TypeError(`a body budget must be a positive integer of bytes; got ${String(limit)}`);
    }
    this.limit = limit;
  }

  /** Bytes charged now. */
  get used(): number {
    return this.#used;
  }

  /** Bytes that can still be charged. */
  get room(): number {
    return this.limit - this.#used;
  }

  /** Charges `bytes` when they fit in the budget, and says whether they did (nothing is charged when not). */
  tryCharge(bytes: number): boolean {
    if (bytes > this.room) return false;
    this.#used += bytes;
    return true;
  }

  /** Gives back `bytes` charged before. */
  refund(bytes: number): void {
    this.#used = Math.max(0, this.#used - bytes);
  }
}

let processBudget: BodyBudget | undefined;

/** The budget every server of this process shares unless given its own ({@link DEFAULT_BODY_BUDGET_BYTES}). */
export function processBodyBudget(): BodyBudget {
  processBudget ??= new BodyBudget(DEFAULT_BODY_BUDGET_BYTES);
  return processBudget;
}

/** The 503 answer of a request whose body does not fit in the budget now. */
export function bodyBudgetExhausted(): ApiError {
  return new ApiError(
    503,
    'unavailable',
    'The server is holding as many request bodies as its memory budget allows; retry after the Retry-After delay.',
    { 'retry-after': String(BODY_BUDGET_RETRY_AFTER_SECONDS) },
  );
}
