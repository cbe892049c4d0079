/**
 * The error of the local runners for a case with no durable outcome: its target may have run (the
 * runner saved its intent to invoke it) but the outcome was never saved, so the runner refuses to
 * invoke it again.
 * @module
 */

import { SvcError, type SvcErrorOptions } from './svc-error.js';

const marker = Symbol.for('svc-run.error.UncertainExecutionError');

/** Options of {@link UncertainExecutionError}. */
export interface UncertainExecutionErrorOptions extends SvcErrorOptions {
  /** The case whose execution may have completed. */
  caseId: string;
  /** The execution, when the service had started one. */
  executionId?: string;
}

/**
 * A case's execution may have completed, but no outcome of it was saved (the runner stopped while
 * the target ran, or before it could save what the target returned). The runner does not repeat
 * possibly completed work: the case is left as it is, and every other case is run.
 */
export class UncertainExecutionError extends SvcError {
  readonly [marker] = true;
  override readonly name: string = 'UncertainExecutionError';
  /** The case whose execution may have completed. */
  readonly caseId: string;
  /** The execution, when the service had started one. */
  declare readonly executionId?: string;

  constructor(message: string, options: UncertainExecutionErrorOptions) {
    super(message, options);
    this.caseId = options.caseId;
    if (options.executionId !== undefined) this.executionId = options.executionId;
  }

  /** True when `error` is an {@link UncertainExecutionError}, from any copy of the package. */
  static override isInstance(error: unknown): error is UncertainExecutionError {
    return SvcError.isInstance(error) && (error as unknown as Record<symbol, unknown>)[marker] === true;
  }
}
