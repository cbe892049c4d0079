/**
 * Calls the application's `flushTelemetry` within what is left of the finalization budget. A
 * flush that throws, rejects or outlasts the budget is reported as not flushed; it never fails
 * the request (the outcome is saved already).
 * @module
 */
import { reportFailure } from '../diagnostics/report-failure.js';

/** True when `flush()` settled without error before `deadline` (ms since the epoch). */
export async function flushWithin(flush: () => unknown, deadline: number): Promise<boolean> {
  const left = deadline - Date.now();
  if (left <= 0) return false;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), left);
  });
  const flushed = (async () => {
    await flush();
    return true;
  })().catch((error: unknown) => {
    // Reported as `telemetryFlushed: false`; the cause (an `SvcExportError`, say) told on diag.
    reportFailure('warn', 'flushTelemetry failed after the outcome was saved', error);
    return false;
  });
  try {
    return await Promise.race([flushed, expired]);
  } finally {
    clearTimeout(timer);
  }
}
