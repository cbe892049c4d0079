/**
 * How `svc eval` ends a reported run, in every mode: with `--json` the document on stdout and the
 * human report on stderr, else the report on stdout; the exit code from the totals.
 * @module
 */
import { ExitCode } from '../../exit-codes.js';
import type { CliIo } from '../../io.js';

/**
 * Prints `document` (with `json`) and `report`. Resolves to 0 when every case passed, else 1.
 */
export function printReport(
  io: CliIo,
  json: boolean,
  document: { totals: { cases: number; passed: number } },
  report: string,
): ExitCode {
  if (json) {
    io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    io.stderr.write(report);
  } else {
    io.stdout.write(report);
  }
  return document.totals.passed === document.totals.cases ? ExitCode.Ok : ExitCode.Failure;
}
