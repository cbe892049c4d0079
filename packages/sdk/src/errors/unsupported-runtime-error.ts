/**
 * The error of a client constructor started on a runtime the SDK does not support (Node.js 20, for
 * example, whose `zlib` lacks what the SDK's HTTP client needs). It is an invalid environment,
 * not an invalid option, so it is not a `TypeError`.
 * @module
 */

import { SvcError, type SvcErrorOptions } from './svc-error.js';

const marker = Symbol.for('svc-run.error.UnsupportedRuntimeError');

/** The runtimes the SDK runs on, as its messages say them. */
export const SUPPORTED_RUNTIMES = 'Node.js 22 (22.19 or later) or 24, or Bun 1.4 or later';

/** Options of {@link UnsupportedRuntimeError}. */
export interface UnsupportedRuntimeErrorOptions extends SvcErrorOptions {
  /** The runtime found: `node` or `bun`. */
  runtime: 'node' | 'bun';
  /** Its version, as `process.versions` gives it (e.g. `20.20.2`). */
  version: string;
}

/**
 * The SDK was started on a runtime it does not support. Thrown by `createSvc` (and `new
 * SvcClient`, `createSvcTransport`, `createMediaReader`), `createEvaluationClient` and
 * `createManagedTargetHandler` before they touch the network stack, with the supported runtimes
 * and the one found in its message.
 */
export class UnsupportedRuntimeError extends SvcError {
  readonly [marker] = true;
  override readonly name: string = 'UnsupportedRuntimeError';
  /** The runtime found: `node` or `bun`. */
  readonly runtime: 'node' | 'bun';
  /** The version found, e.g. `20.20.2`. */
  readonly version: string;

  constructor(message: string, options: UnsupportedRuntimeErrorOptions) {
    super(message, options);
    this.runtime = options.runtime;
    this.version = options.version;
  }

  /** True when `error` is an {@link UnsupportedRuntimeError}, from any copy of the package. */
  static override isInstance(error: unknown): error is UnsupportedRuntimeError {
    return SvcError.isInstance(error) && (error as unknown as Record<symbol, unknown>)[marker] === true;
  }
}
