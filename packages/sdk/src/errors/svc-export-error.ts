/**
 * The error of `flush()` and `shutdown()` when records were rejected, failed, dropped or got an
 * invalid acknowledgement.
 * @module
 */

import type { ExportReport } from '../export/export-report.js';
import type { ExportIssue } from '../options/svc-options.js';
import { SvcError, type SvcErrorOptions } from './svc-error.js';

const marker = Symbol.for('svc-run.error.SvcExportError');

/** Options of {@link SvcExportError}. */
export interface SvcExportErrorOptions extends SvcErrorOptions {
  /** The issues that failed this flush or shutdown (a `warning` alone does not fail one). */
  issues: readonly ExportIssue[];
  /** The transport's report when the error was raised. */
  report: ExportReport;
}

/**
 * A flush or shutdown found export failures. `issues` holds only the failures new to this call
 * (or of in-flight work it shared); `report` keeps cumulative counters. Both are copies taken when
 * the error is created, so later exports do not change them.
 */
export class SvcExportError extends SvcError {
  readonly [marker] = true;
  override readonly name: string = 'SvcExportError';
  /** The sanitized issues behind this error, oldest first. */
  readonly issues: readonly ExportIssue[];
  /** A snapshot of the transport's report when the error was raised. */
  readonly report: ExportReport;

  constructor(message: string, options: SvcExportErrorOptions) {
    super(message, options);
    this.issues = Object.freeze(options.issues.map((issue) => ({ ...issue })));
    this.report = { ...options.report };
  }

  /** True when `error` is a {@link SvcExportError}, from any copy of the package. */
  static override isInstance(error: unknown): error is SvcExportError {
    return SvcError.isInstance(error) && (error as unknown as Record<symbol, unknown>)[marker] === true;
  }
}
