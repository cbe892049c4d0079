/**
 * The error of `verifyTrace()` for failures other than a timeout (a timeout, or missing spans or
 * fields, return `verified: false` instead).
 * @module
 */

import { SvcError, type SvcErrorOptions } from './svc-error.js';

const marker = Symbol.for('svc-run.error.SvcTraceVerificationError');

/** Why a trace verification failed. */
export type TraceVerificationErrorCode =
  /** The service has no receipt route (e.g. an older or different server). */
  | 'unsupported_endpoint'
  /** The service answered with a redirect, which is never followed. */
  | 'redirect'
  /** The receipt was not valid JSON of the expected shape, or was larger than 64 KiB. */
  | 'malformed_response'
  /** No answer: DNS, TLS, reset connection. */
  | 'connection_failed'
  /** HTTP 401: the key is invalid or revoked. */
  | 'unauthorized'
  /** HTTP 403: the key's preset does not allow receipts. */
  | 'forbidden'
  /** Any other HTTP error status that is not retried. */
  | 'http_error';

/** Options of {@link SvcTraceVerificationError}. */
export interface SvcTraceVerificationErrorOptions extends SvcErrorOptions {
  /** Why the verification failed. */
  code: TraceVerificationErrorCode;
  /** The HTTP status, when the failure was an HTTP answer. */
  status?: number;
}

/** Trace verification could not be carried out; never holds a response body or a credential. */
export class SvcTraceVerificationError extends SvcError {
  readonly [marker] = true;
  override readonly name: string = 'SvcTraceVerificationError';
  /** Why the verification failed. */
  readonly code: TraceVerificationErrorCode;
  /** The HTTP status, when the failure was an HTTP answer. */
  declare readonly status?: number;

  constructor(message: string, options: SvcTraceVerificationErrorOptions) {
    super(message, options);
    this.code = options.code;
    if (options.status !== undefined) this.status = options.status;
  }

  /** True when `error` is a {@link SvcTraceVerificationError}, from any copy of the package. */
  static override isInstance(error: unknown): error is SvcTraceVerificationError {
    return SvcError.isInstance(error) && (error as unknown as Record<symbol, unknown>)[marker] === true;
  }
}
