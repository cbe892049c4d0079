import { describe, expect, it } from 'vitest';
import { listenForShutdown, SHUTDOWN_SIGNALS, whenAborted } from './shutdown-signal.js';

function listenerCounts(): number[] {
  return SHUTDOWN_SIGNALS.map((name) => process.listenerCount(name));
}

describe('listenForShutdown', () => {
  // `process.emit` runs the listeners only; no real signal reaches the test process.
  it.each(SHUTDOWN_SIGNALS)('aborts on %s and stops listening', (name) => {
    const before = listenerCounts();
    const shutdown = listenForShutdown();
    expect(listenerCounts()).toEqual(before.map((count) => count + 1));
    expect(shutdown.signal.aborted).toBe(false);

    process.emit(name, name);

    expect(shutdown.signal.aborted).toBe(true);
    expect(shutdown.signal.reason).toBe(name);
    expect(listenerCounts()).toEqual(before);
  });

  it('removes its listeners on dispose without aborting', () => {
    const before = listenerCounts();
    const shutdown = listenForShutdown();
    shutdown.dispose();
    shutdown.dispose();
    expect(listenerCounts()).toEqual(before);
    expect(shutdown.signal.aborted).toBe(false);
  });

  it("answers a caller's own signal instead, leaving the process's signals alone", () => {
    const before = listenerCounts();
    const controller = new AbortController();
    const shutdown = listenForShutdown(controller.signal);
    expect(shutdown.signal).toBe(controller.signal);
    expect(listenerCounts()).toEqual(before);
    shutdown.dispose();
    expect(controller.signal.aborted).toBe(false);
  });
});

describe('whenAborted', () => {
  it('resolves on abort, and at once for a signal already aborted', async () => {
    const controller = new AbortController();
    let settled = false;
    const waiting = whenAborted(controller.signal).then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    controller.abort();
    await waiting;
    expect(settled).toBe(true);
    await expect(whenAborted(AbortSignal.abort())).resolves.toBeUndefined();
  });
});
