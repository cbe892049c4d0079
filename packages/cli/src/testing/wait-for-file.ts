/**
 * Test support: waits for a file a child process writes (a marker), without a time limit of its
 * own: only a child that ends without writing it fails the wait, with what it printed.
 * @module
 */
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Resolves once `path` exists. Rejects when `exit` settles first (the child ended without
 * writing it), with `output()` in the message.
 */
export async function waitForFile(path: string, exit: Promise<unknown>, output: () => string): Promise<void> {
  let ended = false;
  void exit.then(
    () => {
      ended = true;
    },
    () => {
      ended = true;
    },
  );
  for (;;) {
    if (existsSync(path)) return;
    if (ended) throw new Error(`the process ended before writing ${path}; it printed:\n${output()}`);
    await sleep(10);
  }
}
