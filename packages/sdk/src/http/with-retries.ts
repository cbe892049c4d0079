/**
 * The one retry loop of the SDK's remote calls: OTLP exports, upload steps, the runners' calls of
 * the registry and the managed handler's calls of the service. Each says by options which outcomes
 * are tried again, how long to wait, and when to give up (attempts, a deadline, a signal).
 * @module
 */
import { setTimeout as sleepFor } from 'node:timers/promises';

/** Waits `millis`, or rejects when `signal` aborts. Replaceable in tests. */
export type Sleep = (millis: number, signal: AbortSignal) => Promise<void>;

/** The default {@link Sleep}: a timer. */
export const sleep: Sleep = (millis, signal) => sleepFor(millis, undefined, { signal });

/** The signal of waits nothing ends. */
const NEVER_ABORTED = new AbortController().signal;

/** How one attempt ended: with a value, or with a thrown error. */
export type Attempted<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** When and how {@link withRetries} tries again. */
export interface RetryOptions<T> {
  /** Attempts in all, the first included (`Infinity`: until the deadline). */
  maxAttempts: number;
  /**
   * Whether an outcome is tried again, attempts and time permitting. The last outcome is the
   * answer: its value is returned, its error thrown.
   */
  retryable: (outcome: Attempted<T>) => boolean;
  /** The wait before attempt `attempt + 1`, after attempt `attempt` (from 1) ended with `outcome`. */
  delayMillis: (attempt: number, outcome: Attempted<T>) => number;
  /** No wait ends after this time (ms since the epoch, by `now`): the last outcome is the answer. */
  deadline?: number;
  /** Ends a wait between attempts (shutdown). */
  signal?: AbortSignal;
  /** The answer when `signal` ends a wait; without it, the wait's rejection is thrown. */
  onAbortedWait?: () => T;
  sleep?: Sleep;
  now?: () => number;
}

function answer<T>(outcome: Attempted<T>): T {
  if (outcome.ok) return outcome.value;
  throw outcome.error;
}

/**
 * Calls `attempt` (with its number, from 1) until an outcome is not retryable, the attempts run
 * out, or the next attempt could not start before the deadline; then returns that outcome's value
 * or throws its error.
 *
 * @example
 * ```ts
 * const answer = await withRetries(() => send(call), {
 *   maxAttempts: 3,
 *   retryable: (outcome) => !outcome.ok && isTransient(outcome.error),
 *   delayMillis: (attempt) => [250, 1_000][attempt - 1]!,
 * });
 * ```
 */
export async function withRetries<T>(
  attempt: (attempt: number) => Promise<T>,
  options: RetryOptions<T>,
): Promise<T> {
  for (let number = 1; ; number++) {
    let outcome: Attempted<T>;
    try {
      outcome = { ok: true, value: await attempt(number) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    if (number >= options.maxAttempts || !options.retryable(outcome)) return answer(outcome);
    const delay = options.delayMillis(number, outcome);
    if (options.deadline !== undefined && (options.now ?? Date.now)() + delay > options.deadline) {
      return answer(outcome);
    }
    try {
      await (options.sleep ?? sleep)(delay, options.signal ?? NEVER_ABORTED);
    } catch (error) {
      if (options.onAbortedWait !== undefined) return options.onAbortedWait();
      throw error;
    }
  }
}
