/**
 * `svc serve`: runs the reference service on a data directory until SIGINT or SIGTERM.
 * @module
 */
import { join, resolve } from 'node:path';
import {
  DataDirectoryLockedError,
  formatRequestLogLine,
  type RunningServer,
  startServer,
} from '@svc-run/server';
import { type Command, Option } from 'commander';
import { CliError } from '../cli-error.js';
import { writeEnvFile } from '../env-file.js';
import { ExitCode } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { parseNonBlank, parsePort } from '../option-parsers.js';
import { ENV_FILE, ENV_FILE_COMMENT, serviceEnv } from '../service-env.js';
import { listenForShutdown, whenAborted } from '../shutdown-signal.js';

/** The data directory used without `--data`, relative to the working directory. */
export const DEFAULT_DATA_DIR = '.svc-data';

/** The interface listened on without `--host`. */
export const DEFAULT_HOST = '127.0.0.1';

/** The parsed options of `svc serve`. */
export interface ServeOptions {
  port: number;
  host: string;
  data: string;
  /** Deliver to managed targets at loopback, private and other non-public addresses (off when absent). */
  allowPrivateTargets?: boolean;
  /** No request log. */
  quiet: boolean;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Starts the server, writes the env file, prints the origin, the env file's path and a one-time
 * login link to the viewer (never a key) and, unless `quiet`, one request log line per request,
 * then waits for the stop signal and closes the server. Throws when the server cannot start (a
 * {@link CliError} with exit code 3 when another server uses the data directory) or the env file
 * cannot be written.
 */
export async function serve(options: ServeOptions, io: CliIo): Promise<void> {
  const stop = listenForShutdown(io.signal);
  try {
    let server: RunningServer;
    try {
      server = await startServer({
        port: options.port,
        host: options.host,
        dataDir: resolve(io.cwd, options.data),
        allowPrivateTargets: options.allowPrivateTargets === true,
        requestLog: options.quiet ? false : (entry) => io.stdout.write(`${formatRequestLogLine(entry)}\n`),
      });
    } catch (error) {
      if (error instanceof DataDirectoryLockedError) {
        throw new CliError(`cannot start the server: ${error.message}`, ExitCode.DataDirectoryInUse, {
          cause: error,
        });
      }
      throw new Error(`cannot start the server: ${messageOf(error)}`, { cause: error });
    }
    try {
      const envFile = join(server.dataDir, ENV_FILE);
      try {
        await writeEnvFile(envFile, serviceEnv(server), { comment: ENV_FILE_COMMENT });
      } catch (error) {
        throw new Error(`cannot write the env file ${envFile}: ${messageOf(error)}`, { cause: error });
      }
      io.stdout.write(
        [
          `svc serve: listening on ${server.origin}`,
          `Data directory: ${server.dataDir}`,
          `Env file: ${envFile} (SVC_BASE_URL, SVC_API_KEY, SVC_READ_KEY, SVC_RW_KEY, SVC_MACHINE_KEY, SVC_MCP_KEY)`,
          `Viewer: ${server.viewerLoginLink()}`,
          `  (a one-time login link, valid 15 minutes; afterwards log in at ${server.origin}/login with SVC_READ_KEY)`,
          `MCP tool server: ${server.origin}/mcp (key: SVC_MCP_KEY), or \`svc mcp --env-file ${envFile}\` over stdio`,
          'Press Ctrl-C to stop.',
          '',
        ].join('\n'),
      );
      await whenAborted(stop.signal);
      io.stdout.write('Shutting down.\n');
    } finally {
      await server.close();
    }
    io.stdout.write('Stopped.\n');
  } finally {
    stop.dispose();
  }
}

/** Adds the `serve` subcommand to `program`; it inherits the program's output and exit settings. */
export function registerServeCommand(program: Command, io: CliIo): Command {
  return program
    .command('serve')
    .description('Start the reference service on a data directory and write its env file.')
    .addOption(
      new Option('--port <number>', 'port to listen on; 0 picks a free one').argParser(parsePort).default(0),
    )
    .addOption(
      new Option('--host <host>', 'interface to listen on').argParser(parseNonBlank).default(DEFAULT_HOST),
    )
    .addOption(
      new Option('--data <dir>', 'data directory (store, keys, env file)')
        .argParser(parseNonBlank)
        .default(DEFAULT_DATA_DIR),
    )
    .addOption(
      new Option(
        '--allow-private-targets',
        'deliver to managed targets at loopback, private and other non-public addresses (local development)',
      ),
    )
    .addOption(new Option('--quiet', 'no request log (one line per request on stdout)').default(false))
    .addHelpText(
      'after',
      [
        '',
        `Writes ${ENV_FILE} (mode 0600) in the data directory, setting SVC_BASE_URL,`,
        'SVC_API_KEY (tracing key), SVC_READ_KEY, SVC_RW_KEY, SVC_MACHINE_KEY (the',
        'machine credential of managed targets) and SVC_MCP_KEY (the MCP Read key, for',
        'agents reading traces over MCP at <origin>/mcp or with `svc mcp`). A restart on',
        'the same data directory keeps the project, its keys and its traces. One server',
        'at a time may use a data directory: a second one exits with code 3 and changes',
        'nothing.',
        'Prints one line per request (time, method, route, status, duration, bytes; never',
        'a key or content) unless --quiet.',
        'Managed targets must have public addresses: a target URL whose host is or',
        'resolves to a loopback, private or other non-public address is refused, when',
        'registered and at every delivery, unless --allow-private-targets is given (for',
        'a target running on this machine or network).',
        'Stops cleanly on Ctrl-C (SIGINT) or SIGTERM.',
      ].join('\n'),
    )
    .action(async (options: ServeOptions) => {
      await serve(options, io);
    });
}
