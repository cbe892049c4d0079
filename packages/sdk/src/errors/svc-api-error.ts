/**
 * The error of the evaluation client: an HTTP rejection by the service (with `status`), or a
 * connection or response failure (without). Messages are written by the SDK: they never hold the
 * service's response body or the key.
 * @module
 */

import { SvcError, type SvcErrorOptions } from './svc-error.js';

const marker = Symbol.for('svc-run.error.SvcApiError');

/** Options of {@link SvcApiError}. */
export interface SvcApiErrorOptions extends SvcErrorOptions {
  /** The HTTP status, when the service answered with an error status. */
  status?: number;
  /** The service's machine-readable error code (e.g. `stale_revision`), when it sent one. */
  code?: string;
  /** The problems of a refused scenario document, each with its JSON Pointer. */
  problems?: readonly SvcApiProblem[];
}

/** One problem of a refused input: where (a JSON Pointer into it) and the rule it breaks. */
export interface SvcApiProblem {
  path: string;
  message: string;
}

/**
 * An evaluation client call failed. `status` is set when the service answered with an HTTP error;
 * it is absent for connection failures, timeouts and invalid responses. A mutation is never
 * retried implicitly: after a lost answer, retry with the same idempotency key.
 */
export class SvcApiError extends SvcError {
  readonly [marker] = true;
  override readonly name: string = 'SvcApiError';
  /** The HTTP status, when the service answered with an error status. */
  declare readonly status?: number;
  /** The service's machine-readable error code (e.g. `stale_revision`, `frozen`), when given. */
  declare readonly code?: string;
  /**
   * The problems of a refused scenario document (`invalid_scenario`): each with its JSON Pointer
   * into the document and the rule it breaks, as the service wrote them (never a document value).
   */
  declare readonly problems?: readonly SvcApiProblem[];

  constructor(message: string, options: SvcApiErrorOptions = {}) {
    super(message, options);
    if (options.status !== undefined) this.status = options.status;
    if (options.code !== undefined) this.code = options.code;
    if (options.problems !== undefined) this.problems = options.problems;
  }

  /** True when `error` is a {@link SvcApiError}, from any copy of the package. */
  static override isInstance(error: unknown): error is SvcApiError {
    return SvcError.isInstance(error) && (error as unknown as Record<symbol, unknown>)[marker] === true;
  }
}
