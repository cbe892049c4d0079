/**
 * Retries of one upload step (reserve, PUT, complete): up to 3 attempts when there is no answer
 * or the answer is 408, 429 or 5xx, waiting `Retry-After` (capped at 60 s) or a short jittered
 * backoff between attempts.
 * @module
 */
import { setTimeout as sleepFor } from 'node:timers/promises';
import { isProgrammingError } from '../../diagnostics/programming-error.js';
import { MAX_RETRY_AFTER_MILLIS, parseRetryAfter } from '../../export/retry-policy.js';
import { networkReason } from '../../http/service-request.js';
import type { UploadAnswer } from './upload-http.js';
import { UploadSourceError } from './upload-source-error.js';

/** Attempts of each step, the first included. */
export const UPLOAD_ATTEMPTS = 3;
const BACKOFF_MILLIS = 500;
const JITTER = 0.2;
/** What {@link networkReason} returns for an error code (else a name or `network error`). */
const ERROR_CODE = /^[A-Z0-9_]{2,64}$/;

/** Waits `millis`, or rejects when `signal` aborts. Replaceable in tests. */
export type Sleep = (millis: number, signal: AbortSignal) => Promise<void>;

/** The default {@link Sleep}: a timer. */
export const sleep: Sleep = (millis, signal) => sleepFor(millis, undefined, { signal });

/** How a step ended, after retries. */
export type StepOutcome =
  | { kind: 'answer'; answer: UploadAnswer }
  | { kind: 'no-answer'; code: string | undefined }
  | { kind: 'aborted' }
  | { kind: 'source'; error: UploadSourceError };

/** Whether an answer's status is retried. */
export function isRetryableUploadStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/** The wait before attempt `attempt + 1`: `Retry-After` (at most 60 s) or a jittered backoff. */
export function uploadRetryDelayMillis(attempt: number, retryAfter: string | undefined): number {
  const asked = parseRetryAfter(retryAfter);
  if (asked !== undefined) return Math.min(asked, MAX_RETRY_AFTER_MILLIS);
  const backoff = BACKOFF_MILLIS * 2 ** (attempt - 1);
  return Math.round(backoff * (1 - JITTER + Math.random() * 2 * JITTER));
}

/**
 * Runs `attempt` until it gets an answer that is not retried, or the attempts run out. `attempt`
 * rejects when there is no answer; an {@link UploadSourceError} ends the step at once; a
 * programming error (`TypeError`, `RangeError`…) is thrown, not retried.
 */
export async function withUploadRetries(
  attempt: (signal: AbortSignal) => Promise<UploadAnswer>,
  options: { signal: AbortSignal; sleep: Sleep; timeoutMillis?: number },
): Promise<StepOutcome> {
  for (let attempts = 1; ; attempts++) {
    let outcome: StepOutcome;
    let retryAfter: string | undefined;
    const signal =
      options.timeoutMillis === undefined
        ? options.signal
        : AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMillis)]);
    try {
      const answer = await attempt(signal);
      outcome = { kind: 'answer', answer };
      retryAfter = answer.retryAfter;
      if (!isRetryableUploadStatus(answer.status)) return outcome;
    } catch (error) {
      if (options.signal.aborted) return { kind: 'aborted' };
      if (UploadSourceError.isInstance(error)) return { kind: 'source', error };
      const source = (error as { cause?: unknown }).cause;
      if (UploadSourceError.isInstance(source)) return { kind: 'source', error: source };
      // A programming error is a defect, not a missing answer: not retried, up to the uploader's
      // guard, which reports it (network failures are undici's or the system's errors, timeouts
      // the signal's).
      if (isProgrammingError(error)) throw error;
      // Only a system or undici error code (such as ECONNRESET) is shown, never other text.
      const reason = networkReason(error);
      outcome = { kind: 'no-answer', code: ERROR_CODE.test(reason) ? reason : undefined };
    }
    if (attempts >= UPLOAD_ATTEMPTS) return outcome;
    try {
      await options.sleep(uploadRetryDelayMillis(attempts, retryAfter), options.signal);
    } catch {
      return { kind: 'aborted' }; // the wait was ended (deadline, shutdown): the fallback says which
    }
  }
}
