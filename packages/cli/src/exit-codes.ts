/**
 * The exit codes of the `svc` command.
 * @module
 */

/**
 * Exit codes of {@link run} and of the `svc` executable.
 *
 * - `Ok` (0): success, including `--help` and a clean shutdown of `svc serve`; `svc eval`: every
 *   case passed.
 * - `Failure` (1): the command was valid but failed (for example, the port is taken); `svc eval`:
 *   a case failed, errored or has checks pending, or the run could not be made.
 * - `Usage` (2): the command line is invalid (unknown command or flag, bad option value).
 * - `DataDirectoryInUse` (3): `svc serve` was refused because another server uses its data
 *   directory; nothing in the directory was changed.
 * - `Interrupted` (130, 128 + SIGINT): `svc eval` was stopped by Ctrl-C or SIGTERM; rerun the same
 *   command to resume.
 */
export const ExitCode = {
  Ok: 0,
  Failure: 1,
  Usage: 2,
  DataDirectoryInUse: 3,
  Interrupted: 130,
} as const;

/** One of the values of {@link ExitCode}. */
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
