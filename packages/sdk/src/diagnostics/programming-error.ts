/**
 * Whether a thrown error is a programming error — a defect of the SDK (or of what it was handed),
 * not a network or file-system failure: those are undici's or the system's errors (with a code),
 * and timeouts or aborts the signal's (`TimeoutError`, `AbortError`). A defect is not retried as
 * a missing answer; it is reported with its cause.
 * @module
 */

/** `TypeError`, `RangeError`, `ReferenceError` or `SyntaxError`. */
export function isProgrammingError(error: unknown): boolean {
  return (
    error instanceof TypeError ||
    error instanceof RangeError ||
    error instanceof ReferenceError ||
    error instanceof SyntaxError
  );
}
