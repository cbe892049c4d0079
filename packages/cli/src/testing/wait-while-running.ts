/**
 * Test support: waits for something a long-running child process brings about (a run it serves is
 * complete, a line it prints), by polling, without a time limit of its own: only a child that ends
 * before it happens fails the wait, with what it printed. The test's own timeout is the bound.
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** What the wait needs of the child: its end, and its output for the failure message. */
export interface RunningChild {
  exit: Promise<unknown>;
  stderr: { readonly text: string };
}

/**
 * Polls `condition` (sync or async) until it returns a value other than `undefined` or `false`,
 * and resolves to that value. Rejects when `child` has ended first (checked after a last poll),
 * naming `what` and with the child's stderr.
 */
export async function waitWhileRunning<T>(
  child: RunningChild,
  what: string,
  condition: () => T | false | undefined | Promise<T | false | undefined>,
): Promise<T> {
  let ended = false;
  const mark = () => {
    ended = true;
  };
  void child.exit.then(mark, mark);
  for (;;) {
    const wasEnded = ended;
    const value = await condition();
    if (value !== undefined && value !== false) return value;
    if (wasEnded) {
      throw new Error(`the process ended before ${what}; it printed:\n${child.stderr.text}`);
    }
    await sleep(20);
  }
}
