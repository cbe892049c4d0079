/**
 * Retries of `svc eval`'s own registry calls after a transient failure, mutations with their saved
 * idempotency key (the service then returns the first answer): the policy of the SDK's runners.
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { SvcApiError } from '@svc-run/sdk/evals';

const DELAYS_MILLIS = [250, 1_000];
const TRANSIENT = new Set([408, 429, 500, 502, 503, 504]);

/** Calls `call`, again after 250 ms and 1 s while it fails with no answer, 408, 429 or 5xx. */
export async function withRetry<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const delay = DELAYS_MILLIS[attempt];
      const transient =
        SvcApiError.isInstance(error) && (error.status === undefined || TRANSIENT.has(error.status));
      if (delay === undefined || !transient) throw error;
      await sleep(delay);
    }
  }
}
