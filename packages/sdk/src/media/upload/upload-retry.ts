/**
 * Retries of one upload step (reserve, PUT, complete): up to 3 attempts when there is no answer
 * or the answer is 408, 429 or 5xx, waiting `Retry-After` (capped at 60 s) or a short jittered
 * backoff between attempts.
 * @module
 */
import { isProgrammingError } from '../../diagnostics/programming-error.js';
import { MAX_RETRY_AFTER_MILLIS, parseRetryAfter } from '../../export/retry-policy.js';
import { networkReason } from '../../http/service-request.js';
import { type Sleep, withRetries } from '../../http/with-retries.js';
import type { UploadAnswer } from './upload-http.js';
import { UploadSourceError } from './upload-source-error.js';

/** Attempts of each step, the first included. */
export const UPLOAD_ATTEMPTS = 3;
const BACKOFF_MILLIS = 500;
const JITTER = 0.2;
/** What {@link networkReason} returns for an error code (else a name or `network error`). */
const ERROR_CODE = /^[A-Z0-9_]{2,64}$/;

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

/** One attempt: its answer, or how it got none. */
async function tryOnce(
  attempt: (signal: AbortSignal) => Promise<UploadAnswer>,
  options: { signal: AbortSignal; timeoutMillis?: number },
): Promise<StepOutcome> {
  const signal =
    options.timeoutMillis === undefined
      ? options.signal
      : AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMillis)]);
  try {
    return { kind: 'answer', answer: await attempt(signal) };
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
    return { kind: 'no-answer', code: ERROR_CODE.test(reason) ? reason : undefined };
  }
}

/**
 * Runs `attempt` until it gets an answer that is not retried, or the attempts run out. `attempt`
 * rejects when there is no answer; an {@link UploadSourceError} ends the step at once; a
 * programming error (`TypeError`, `RangeError`…) is thrown, not retried.
 */
export function withUploadRetries(
  attempt: (signal: AbortSignal) => Promise<UploadAnswer>,
  options: { signal: AbortSignal; sleep: Sleep; timeoutMillis?: number },
): Promise<StepOutcome> {
  return withRetries(() => tryOnce(attempt, options), {
    maxAttempts: UPLOAD_ATTEMPTS,
    retryable: (tried) =>
      tried.ok &&
      (tried.value.kind === 'no-answer' ||
        (tried.value.kind === 'answer' && isRetryableUploadStatus(tried.value.answer.status))),
    delayMillis: (attempts, tried) =>
      uploadRetryDelayMillis(
        attempts,
        tried.ok && tried.value.kind === 'answer' ? tried.value.answer.retryAfter : undefined,
      ),
    signal: options.signal,
    sleep: options.sleep,
    // the wait was ended (deadline, shutdown): the fallback says which
    onAbortedWait: () => ({ kind: 'aborted' }),
  });
}
