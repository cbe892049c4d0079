/**
 * The `svc` command line: builds the commander program and runs it in-process.
 * @module
 */
import { Command, CommanderError } from 'commander';
import manifest from '../package.json' with { type: 'json' };
import { CliError } from './cli-error.js';
import { registerEvalCommand } from './commands/eval/eval-command.js';
import { type EvalHooks, installedEvalHooks } from './commands/eval/eval-hooks.js';
import { registerLoginCommand } from './commands/login/login-command.js';
import { registerMcpCommand } from './commands/mcp.js';
import { registerScenarioCommand } from './commands/scenario.js';
import { registerServeCommand } from './commands/serve.js';
import { ExitCode } from './exit-codes.js';
import { type CliIo, type OutputStream, resolveIo } from './io.js';

// Commander's own default: the terminal's width, else 80 columns.
function helpWidth(stream: OutputStream): number {
  return (stream.isTTY && stream.columns) || 80;
}

/** What a command reports besides success or an error: its exit code (`svc eval`'s 1 for a failed case). */
export interface ProgramOutcome {
  exitCode: ExitCode;
}

/**
 * Builds the `svc` program writing to `io`. It throws `CommanderError` instead of exiting; a
 * command's own exit code goes to `outcome`.
 */
export function createProgram(
  io: CliIo,
  outcome: ProgramOutcome = { exitCode: ExitCode.Ok },
  hooks: EvalHooks = {},
): Command {
  const program = new Command('svc')
    .description('Serve the reference service, run evaluations, log in, and serve MCP over stdio.')
    .version(manifest.version, '-V, --version', 'print the version of svc')
    // The program's options (`--help`, `--version`) come before the command; everything after it
    // is the command's. So `svc <unknown> --help` is an unknown command (a usage error), not a
    // request for the top-level help, and `svc serve --version` suggests none of the program's.
    .enablePositionalOptions()
    .passThroughOptions()
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      getOutHelpWidth: () => helpWidth(io.stdout),
      getErrHelpWidth: () => helpWidth(io.stderr),
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    })
    .showHelpAfterError('(add --help for usage)');
  registerServeCommand(program, io);
  registerEvalCommand(
    program,
    io,
    (code) => {
      outcome.exitCode = code;
    },
    hooks,
  );
  registerLoginCommand(program, io);
  registerMcpCommand(program, io);
  registerScenarioCommand(program, io);
  return program;
}

/**
 * Runs the `svc` command line in-process and resolves to its exit code (see {@link ExitCode}):
 * 0 on success, 1 when the command fails, 2 on a usage error, 3 when `svc serve` finds its data
 * directory in use by another server. Never calls `process.exit`; the
 * error message goes to `io.stderr`.
 *
 * `svc serve` resolves once the server has stopped: on `io.signal`, or, without one, on SIGINT
 * or SIGTERM.
 *
 * @param argv - Arguments as in `process.argv`: the Node executable, the script, then the arguments.
 * @param io - Streams, working directory and stop signal; the process's own by default.
 *
 * @example
 * ```ts
 * process.exitCode = await run(process.argv);
 * ```
 */
export async function run(argv: readonly string[], io: Partial<CliIo> = {}): Promise<ExitCode> {
  const hooks = installedEvalHooks();
  const resolved = resolveIo(io);
  const outcome: ProgramOutcome = { exitCode: ExitCode.Ok };
  try {
    await createProgram(resolved, outcome, hooks).parseAsync(argv, { from: 'node' });
    return outcome.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already written the message or the help text.
      return error.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
    }
    resolved.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof CliError ? error.exitCode : ExitCode.Failure;
  }
}
