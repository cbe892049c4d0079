/**
 * Flushes of the tracing client that cover every span ended before the call. `svc.flush()` shares
 * a flush already in progress, which may have started before the caller's span ended; here a call
 * made while a flush runs waits for the next one, started after it.
 * @module
 */

/** Returns a function that resolves once a flush started after its call has settled. */
export function flushBarrier(flush: () => Promise<unknown>): () => Promise<void> {
  let waiting: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  let driving = false;
  const drive = async (): Promise<void> => {
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      try {
        await flush();
        for (const waiter of batch) waiter.resolve();
      } catch (error) {
        for (const waiter of batch) waiter.reject(error);
      }
    }
    driving = false; // in the same step as the last check of `waiting`
  };
  return () =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ resolve, reject });
      if (!driving) {
        driving = true;
        void drive();
      }
    });
}
