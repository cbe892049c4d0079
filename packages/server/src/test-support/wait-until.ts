/**
 * Waiting in tests for something the code under test reaches on its own, without a time margin:
 * the condition is polled until it holds, however loaded the machine is; only the test's own
 * timeout (vitest `testTimeout`) bounds the wait, and then `what` says what never happened.
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `condition` (sync or async) every few milliseconds until it returns a value other than `undefined` or `false`. */
export async function waitUntil<T>(
  condition: () => T | false | undefined | Promise<T | false | undefined>,
  what = 'the condition',
  signal?: AbortSignal,
): Promise<T> {
  for (;;) {
    const value = await condition();
    if (value !== undefined && value !== false) return value;
    if (signal?.aborted) throw new Error(`gave up waiting for ${what}`);
    await sleep(5);
  }
}
