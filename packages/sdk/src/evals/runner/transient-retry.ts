/**
 * Retries of the runners' remote calls after a transient failure. Every mutation is retried with
 * its saved idempotency key and the same body, so a call that was applied but whose answer was
 * lost returns its first answer instead of applying twice.
 * @module
 */
import { SvcApiError } from '../../errors/svc-api-error.js';
import { withRetries } from '../../http/with-retries.js';

/** Waits before the second and third tries. */
export const RETRY_DELAYS_MILLIS: readonly number[] = [250, 1_000];

const TRANSIENT_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** Whether `error` is a failure worth another try: no answer, a timeout, 408, 429 or 5xx. */
export function isTransient(error: unknown): boolean {
  if (!SvcApiError.isInstance(error)) return false;
  return error.status === undefined || TRANSIENT_STATUSES.has(error.status);
}

/** Calls `call`, and again after each delay of `delays` while it fails transiently. */
export function withTransientRetry<T>(
  call: () => Promise<T>,
  delays: readonly number[] = RETRY_DELAYS_MILLIS,
): Promise<T> {
  return withRetries(call, {
    maxAttempts: delays.length + 1,
    retryable: (outcome) => !outcome.ok && isTransient(outcome.error),
    delayMillis: (attempt) => delays[attempt - 1]!,
  });
}
