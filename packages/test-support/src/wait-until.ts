/**
 * Waiting in tests for something the code under test reaches on its own (a request arrived, a job
 * settled, a finalizer ran), without a time margin: the condition is polled until it holds,
 * however loaded the machine is; no attempt limit can run out first. The only bound is just under
 * the projects' `testTimeout` (30 s), and reaching it fails the test with a message naming what
 * never happened, instead of vitest's bare "timed out".
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Just under the projects' `testTimeout` (30 s): only an event that never comes reaches it. */
const GIVE_UP_MILLIS = 28_000;

/**
 * Polls `condition` (sync or async) every `everyMillis` until it returns a value other than
 * `undefined` or `false`, and returns that value.
 *
 * @param what - The awaited event, for the failure message.
 */
export async function waitUntil<T>(
  condition: () => T | false | undefined | Promise<T | false | undefined>,
  what = 'the condition',
  everyMillis = 5,
): Promise<T> {
  const started = performance.now();
  for (;;) {
    const value = await condition();
    if (value !== undefined && value !== false) return value;
    const waited = performance.now() - started;
    if (waited > GIVE_UP_MILLIS)
      throw new Error(`waited ${Math.round(waited)} ms for ${what}; it never happened`);
    await sleep(everyMillis);
  }
}
