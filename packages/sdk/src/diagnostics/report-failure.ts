/**
 * Sends a failure the SDK keeps from the application to OpenTelemetry's `diag` logger, as
 * OpenTelemetry's own processors do (their global error handler logs with `diag.error`): the
 * application sees it once it sets a logger (`diag.setLogger(new DiagConsoleLogger(),
 * DiagLogLevel.WARN)`), and nothing is printed otherwise. The line is sanitized (see
 * `describe-failure.ts`) and followed by the error's stack frames.
 * @module
 */
import { diag } from '@opentelemetry/api';
import { type DescribeOptions, describeFailure, stackFrames } from './describe-failure.js';

/** `error` for failures that lose telemetry or show a defect; `warn` for a misuse or a fallback. */
export type FailureLevel = 'error' | 'warn';

/**
 * Logs `svc-run: <what>: <sanitized failure>` on `diag` at `level`. Never throws (an application
 * logger that throws is ignored: telemetry must not fail the application).
 */
export function reportFailure(
  level: FailureLevel,
  what: string,
  thrown: unknown,
  options?: DescribeOptions,
): void {
  try {
    const frames = stackFrames(thrown);
    const line = `svc-run: ${what}: ${describeFailure(thrown, options)}`;
    if (frames.length === 0) diag[level](line);
    else diag[level](line, frames.join('\n'));
  } catch {
    // The application's diag logger threw: nothing else to tell it with.
  }
}
