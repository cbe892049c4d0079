/**
 * A command's failure with the exit code it ends with.
 * @module
 */
import type { ExitCode } from './exit-codes.js';

/** A failure `run` reports with its own exit code (other errors exit with `Failure`, 1). */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly exitCode: ExitCode;

  constructor(message: string, exitCode: ExitCode, options?: ErrorOptions) {
    super(message, options);
    this.exitCode = exitCode;
  }
}
