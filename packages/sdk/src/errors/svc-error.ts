/**
 * The base of every error the SDK throws. Errors are branded with a global symbol, so
 * `SvcError.isInstance(error)` works even when two copies of the package are loaded (duplicated
 * bundles, several subpath entries), where `instanceof` would not.
 * @module
 */

const marker = Symbol.for('svc-run.error');

/** Options of {@link SvcError}. */
export interface SvcErrorOptions {
  /** The underlying error, kept for debugging; never a server body or a key. */
  cause?: unknown;
}

/** Base class of the SDK's errors. */
export class SvcError extends Error {
  readonly [marker] = true;
  override readonly name: string = 'SvcError';

  constructor(message: string, options: SvcErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
  }

  /** True when `error` is an SDK error, from any copy of the package. */
  static isInstance(error: unknown): error is SvcError {
    return (
      typeof error === 'object' &&
      error !== null &&
      marker in error &&
      (error as Record<symbol, unknown>)[marker] === true
    );
  }
}
