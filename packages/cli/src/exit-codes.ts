/**
 * The exit codes of the `svc` command.
 * @module
 */

/**
 * Exit codes of {@link run} and of the `svc` executable.
 *
 * - `Ok` (0): success, including `--help` and a clean shutdown of `svc serve`.
 * - `Failure` (1): the command was valid but failed (for example, the port is taken).
 * - `Usage` (2): the command line is invalid (unknown command or flag, bad option value).
 * - `DataDirectoryInUse` (3): `svc serve` was refused because another server uses its data
 *   directory; nothing in the directory was changed.
 */
export const ExitCode = {
  Ok: 0,
  Failure: 1,
  Usage: 2,
  DataDirectoryInUse: 3,
} as const;

/** One of the values of {@link ExitCode}. */
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
