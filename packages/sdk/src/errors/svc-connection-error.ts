/**
 * The error of the connection check (`checkConnection()`): rejected authentication, a network
 * failure or an invalid response. No trace is sent by the check.
 * @module
 */

import { SvcError, type SvcErrorOptions } from './svc-error.js';

const marker = Symbol.for('svc-run.error.SvcConnectionError');

/** Options of {@link SvcConnectionError}. */
export interface SvcConnectionErrorOptions extends SvcErrorOptions {
  /** The HTTP status, when the failure was an HTTP answer (e.g. 401, 403, 500). */
  status?: number;
}

/** The connection check failed; `status` is set when the service answered with an HTTP error. */
export class SvcConnectionError extends SvcError {
  readonly [marker] = true;
  override readonly name: string = 'SvcConnectionError';
  /** The HTTP status, when the failure was an HTTP answer; absent for network or response failures. */
  declare readonly status?: number;

  constructor(message: string, options: SvcConnectionErrorOptions = {}) {
    super(message, options);
    if (options.status !== undefined) this.status = options.status;
  }

  /** True when `error` is a {@link SvcConnectionError}, from any copy of the package. */
  static override isInstance(error: unknown): error is SvcConnectionError {
    return SvcError.isInstance(error) && (error as unknown as Record<symbol, unknown>)[marker] === true;
  }
}
