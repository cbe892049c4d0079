/**
 * `svc login`: asks for the service origin and a Read-and-write key, checks the key against the
 * service, and stores both in an env file git ignores (`.svc/svc.env`, mode 0600), which `svc eval`
 * then uses by default.
 * @module
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { type Command, Option } from 'commander';
import { read } from 'read';
import { CliError } from '../../cli-error.js';
import { checkReadWriteKey } from '../../credentials/check-key.js';
import { LOGIN_ENV_FILE } from '../../credentials/service-credentials.js';
import { writeEnvFile } from '../../env-file.js';
import { ExitCode } from '../../exit-codes.js';
import type { CliIo, InputStream } from '../../io.js';
import { parseNonBlank } from '../../option-parsers.js';
import { ENV_FILE } from '../../service-env.js';
import { DEFAULT_DATA_DIR } from '../serve.js';
import { ignoreInGit } from './git-ignore.js';

/** The parsed options of `svc login`. */
export interface LoginOptions {
  origin?: string;
  keyStdin: boolean;
  envFile?: string;
}

/** The comment heading the env file `svc login` writes. */
export const LOGIN_ENV_FILE_COMMENT = [
  'Written by `svc login`: the service origin and a Read-and-write key. Holds a secret; keep it private.',
  '`svc eval` reads it by default.',
].join('\n');

/** The origin of the local server `svc serve` runs on, from its env file in `.svc-data`, if any. */
async function localServerOrigin(cwd: string): Promise<string | undefined> {
  try {
    const text = await readFile(join(cwd, DEFAULT_DATA_DIR, ENV_FILE), 'utf8');
    return parseEnv(text).SVC_BASE_URL || undefined;
  } catch {
    return undefined;
  }
}

async function readAll(stream: InputStream): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += String(chunk);
  return text;
}

async function askOrigin(options: LoginOptions, io: CliIo, stdin: InputStream): Promise<string> {
  if (options.origin !== undefined) return options.origin;
  const local = await localServerOrigin(io.cwd);
  if (options.keyStdin || stdin.isTTY !== true) {
    if (local !== undefined) return local;
    throw new CliError(
      'no service origin: pass --origin <url> (no terminal to ask it on, and no env file of svc serve in .svc-data).',
      ExitCode.Usage,
    );
  }
  const answer = await read({
    prompt: local === undefined ? 'Service origin: ' : `Service origin [${local}]: `,
    input: stdin,
    output: io.stderr as NodeJS.WritableStream,
  });
  const origin = String(answer).trim() || local;
  if (origin === undefined) throw new CliError('no service origin given.', ExitCode.Usage);
  return origin;
}

async function askKey(options: LoginOptions, io: CliIo, stdin: InputStream): Promise<string> {
  let key: string;
  if (options.keyStdin) {
    key = (await readAll(stdin)).split(/\r?\n/, 1)[0]!.trim();
  } else if (stdin.isTTY === true) {
    // Hidden input: nothing of the key is echoed.
    key = String(
      await read({
        prompt: 'Read-and-write key (hidden): ',
        silent: true,
        replace: '',
        input: stdin,
        output: io.stderr as NodeJS.WritableStream,
      }),
    ).trim();
  } else {
    throw new CliError('no terminal to ask for the key on: pipe it in with --key-stdin.', ExitCode.Usage);
  }
  if (key === '') throw new CliError('no key given.', ExitCode.Usage);
  return key;
}

/**
 * Logs in: the origin (`--origin`, else asked, defaulting to the local server of `svc serve`), the
 * key (hidden on a terminal, or the first line of stdin with `--key-stdin`), checked against the
 * service, then stored. Prints what it did on stdout, never the key.
 */
export async function login(options: LoginOptions, io: CliIo): Promise<void> {
  const stdin = io.stdin ?? process.stdin;
  const origin = await askOrigin(options, io, stdin);
  const key = await askKey(options, io, stdin);
  const { project, client } = await checkReadWriteKey(origin, key);
  const file = resolve(io.cwd, options.envFile ?? LOGIN_ENV_FILE);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  // Ignored before it holds the key: a crash in between leaves no secret git would pick up.
  const ignored = await ignoreInGit(file);
  try {
    await writeEnvFile(
      file,
      { SVC_BASE_URL: client.baseUrl, SVC_API_KEY: key },
      { comment: LOGIN_ENV_FILE_COMMENT },
    );
  } catch (error) {
    // `writeEnvFile`'s messages never hold a value.
    throw new CliError(
      `cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`,
      ExitCode.Failure,
      { cause: error },
    );
  }
  const lines = [
    `Logged in to ${client.baseUrl}: project ${project.name} (${project.slug}).`,
    `Wrote ${file} (mode 0600): SVC_BASE_URL, SVC_API_KEY.`,
  ];
  if (ignored.kind === 'added')
    lines.push(`Added ${ignored.line} to ${ignored.gitignore}, so git ignores it.`);
  else if (ignored.kind === 'already-ignored') lines.push('git ignores it already.');
  io.stdout.write(`${lines.join('\n')}\n`);
}

/** Adds the `login` subcommand to `program`. */
export function registerLoginCommand(program: Command, io: CliIo): Command {
  return program
    .command('login')
    .description('Store the service origin and a Read-and-write key for svc eval, after checking them.')
    .addOption(
      new Option('--origin <url>', 'the service origin (asked when not given)').argParser(parseNonBlank),
    )
    .addOption(
      new Option('--key-stdin', 'read the key from the first line of stdin (for scripts)').default(false),
    )
    .addOption(
      new Option('--env-file <file>', `where to store them (default: ${LOGIN_ENV_FILE})`).argParser(
        parseNonBlank,
      ),
    )
    .addHelpText(
      'after',
      [
        '',
        'The key is asked with hidden input on a terminal and checked against the service (the',
        'project check, then registry reads): a tracing or Read key is refused with the reason.',
        `The env file (mode 0600) holds SVC_BASE_URL and SVC_API_KEY; inside a git work tree it is`,
        'added to the top-level .gitignore unless git ignores it already. The key is never printed.',
      ].join('\n'),
    )
    .action(async (options: LoginOptions) => {
      await login(options, io);
    });
}
