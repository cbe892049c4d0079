/**
 * The export report of the spec's "Export report": what a transport has exported so far.
 * @module
 */

/**
 * Counters of a transport, returned by `flush()`, `shutdown()` and `transport.getReport()` and
 * carried by `SvcExportError`. Every count except the `pending*` ones is cumulative over the
 * transport's life.
 */
export interface ExportReport {
  /** Spans the service acknowledged. */
  acceptedSpans: number;
  /** Log records the service acknowledged. */
  acceptedLogs: number;
  /** Spans the service refused (including partial rejections) or a failing redactor rejected. */
  rejectedSpans: number;
  /** Log records the service refused (including partial rejections) or a failing redactor rejected. */
  rejectedLogs: number;
  /** Spans whose export failed (no answer, retries exhausted, invalid acknowledgement). */
  failedSpans: number;
  /** Log records whose export failed (no answer, retries exhausted, invalid acknowledgement). */
  failedLogs: number;
  /** Spans dropped because the queue (2,048 records per signal) was full. */
  droppedSpans: number;
  /** Log records dropped because the queue (2,048 records per signal) was full. */
  droppedLogs: number;
  /** Spans currently queued or in flight. */
  pendingSpans: number;
  /** Log records currently queued or in flight. */
  pendingLogs: number;
  /**
   * Files that could not be uploaded and kept their digest or inline form instead: refused at
   * export (setup key, memory budget, 64 entries, shutdown, no upload route) or failed afterwards
   * (retries exhausted, link expired, deadline, shutdown, file changed). Each raises a `warning`.
   */
  uploadFallbacks: number;
  /** Files stored under their trace: uploaded, or found already held there (counted once per trace). */
  uploadedValues: number;
}

/** A report with every counter at zero: the state of a transport that has not exported anything. */
export function emptyExportReport(): ExportReport {
  return {
    acceptedSpans: 0,
    acceptedLogs: 0,
    rejectedSpans: 0,
    rejectedLogs: 0,
    failedSpans: 0,
    failedLogs: 0,
    droppedSpans: 0,
    droppedLogs: 0,
    pendingSpans: 0,
    pendingLogs: 0,
    uploadFallbacks: 0,
    uploadedValues: 0,
  };
}
