/**
 * The error of `media.fetch()`: a recorded file could not be read back.
 * @module
 */

import { SvcError, type SvcErrorOptions } from './svc-error.js';

const marker = Symbol.for('svc-run.error.MediaFetchError');

/** Why a file could not be read. */
export type MediaFetchErrorReason =
  /**
   * The trace holds no file with this SHA-256 (or the trace does not exist); for a trace snapshot,
   * none of its records lists the file (or the snapshot does not exist).
   */
  | 'not_found'
  /**
   * A record of the trace (or of the trace snapshot) lists the file, but its bytes were never
   * uploaded, or were erased.
   */
  | 'missing'
  /** The service could not read its storage. */
  | 'unavailable'
  /**
   * The key cannot read recorded content (a Tracing key or a setup credential; media reads need a
   * Read or Read and write key, and snapshot copies a Read and write key), the key was rejected,
   * or the download link was refused.
   */
  | 'forbidden'
  /** The file is larger than the size limit of the call (`maxBytes`, default 64 MiB). */
  | 'too_large'
  /** The bytes received do not have the SHA-256 that was asked for. */
  | 'digest_mismatch'
  /** Any other failure: no answer, an unexpected status, a malformed answer. */
  | 'failed';

/** Options of {@link MediaFetchError}. */
export interface MediaFetchErrorOptions extends SvcErrorOptions {
  /** Why the file could not be read. */
  reason: MediaFetchErrorReason;
  /** The HTTP status, when the failure was an HTTP answer. */
  status?: number;
}

/**
 * A file could not be read back. The message says what to change; it never holds a key, a
 * response body, a download link or recorded content.
 */
export class MediaFetchError extends SvcError {
  readonly [marker] = true;
  override readonly name: string = 'MediaFetchError';
  /** Why the file could not be read. */
  readonly reason: MediaFetchErrorReason;
  /** The HTTP status, when the failure was an HTTP answer; absent otherwise. */
  declare readonly status?: number;

  constructor(message: string, options: MediaFetchErrorOptions) {
    super(message, options);
    this.reason = options.reason;
    if (options.status !== undefined) this.status = options.status;
  }

  /** True when `error` is a {@link MediaFetchError}, from any copy of the package. */
  static override isInstance(error: unknown): error is MediaFetchError {
    return SvcError.isInstance(error) && (error as unknown as Record<symbol, unknown>)[marker] === true;
  }
}
