/**
 * Polling a condition until it holds or a deadline passes, never waiting past the deadline: the
 * wait between reads doubles from 25 ms up to 500 ms, and the last wait is cut to the time left.
 * @module
 */

/** The time polling runs on: the real one, or a test's. */
export interface PollClock {
  /** Monotonic milliseconds. */
  now(): number;
  /** Resolves after `millis`, or when `signal` aborts. */
  sleep(millis: number, signal: AbortSignal | undefined): Promise<void>;
}

/** The real clock. */
export const REAL_CLOCK: PollClock = {
  now: () => performance.now(),
  sleep: (millis, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) {
        resolve();
        return;
      }
      const timer = setTimeout(done, millis);
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    }),
};

const FIRST_WAIT_MILLIS = 25;
const MAX_WAIT_MILLIS = 500;

/**
 * Reads `read()` until `done(value)` holds, `timeoutMillis` passes or `signal` aborts, and returns
 * the last value read. Reads at least once.
 */
export async function pollUntil<T>(
  read: () => T,
  done: (value: T) => boolean,
  options: { timeoutMillis: number; signal?: AbortSignal | undefined; clock: PollClock },
): Promise<T> {
  const { clock, signal } = options;
  const deadline = clock.now() + options.timeoutMillis;
  let wait = FIRST_WAIT_MILLIS;
  for (;;) {
    const value = read();
    const left = deadline - clock.now();
    if (done(value) || left <= 0 || signal?.aborted) return value;
    await clock.sleep(Math.min(wait, left), signal);
    wait = Math.min(wait * 2, MAX_WAIT_MILLIS);
  }
}
