/**
 * The error of `runExperiment` when a target returned a value that cannot be saved as JSON.
 * @module
 */

import { SvcError, type SvcErrorOptions } from './svc-error.js';

const marker = Symbol.for('svc-run.error.OutcomeSerializationError');

/** Options of {@link OutcomeSerializationError}. */
export interface OutcomeSerializationErrorOptions extends SvcErrorOptions {
  /** The execution whose outcome could not be saved. */
  executionId: string;
}

/**
 * A target returned a value that cannot be saved as JSON (a `bigint`, a cycle, a class instance, a
 * value over the 1 MiB request limit, …). The runner completes the execution in state `error`
 * (type `OutcomeSerializationError`) and never invokes the target again for that case.
 */
export class OutcomeSerializationError extends SvcError {
  readonly [marker] = true;
  override readonly name: string = 'OutcomeSerializationError';
  /** The execution whose outcome could not be saved. */
  readonly executionId: string;

  constructor(message: string, options: OutcomeSerializationErrorOptions) {
    super(message, options);
    this.executionId = options.executionId;
  }

  /** True when `error` is an {@link OutcomeSerializationError}, from any copy of the package. */
  static override isInstance(error: unknown): error is OutcomeSerializationError {
    return SvcError.isInstance(error) && (error as unknown as Record<symbol, unknown>)[marker] === true;
  }
}
