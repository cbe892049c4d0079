/**
 * Turns the process's SIGINT and SIGTERM into an `AbortSignal`.
 * @module
 */

/** The signals that stop `svc serve` cleanly. */
export const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** An abort signal fed by process signals, and the way to stop listening for them. */
export interface ShutdownListener {
  /** Aborted, with the signal's name as reason, on the first SIGINT or SIGTERM. */
  readonly signal: AbortSignal;
  /** Removes the process listeners (idempotent). */
  dispose(): void;
}

/**
 * Listens for the first SIGINT or SIGTERM. The listeners go away on that first signal, so a
 * second Ctrl-C during a slow shutdown gets Node's default behaviour and ends the process.
 *
 * With `given` (a caller's own stop signal, `CliIo.signal`), that signal is answered instead and
 * the process's signals are left alone.
 */
export function listenForShutdown(given?: AbortSignal): ShutdownListener {
  if (given !== undefined) return { signal: given, dispose: () => undefined };
  const controller = new AbortController();
  const onSignal = (name: NodeJS.Signals): void => {
    dispose();
    controller.abort(name);
  };
  function dispose(): void {
    for (const name of SHUTDOWN_SIGNALS) process.off(name, onSignal);
  }
  for (const name of SHUTDOWN_SIGNALS) process.on(name, onSignal);
  return { signal: controller.signal, dispose };
}

/** Resolves once `signal` is aborted (at once when it already is). */
export function whenAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
