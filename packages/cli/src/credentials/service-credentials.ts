/**
 * The service origin and Read-and-write key `svc eval` uses, read from an env file: the one
 * `svc login` writes (`.svc/svc.env`), or any file given with `--env-file` (the `svc.env` of
 * `svc serve` included).
 * @module
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { CliError } from '../cli-error.js';
import { ExitCode } from '../exit-codes.js';

/** Where `svc login` writes its env file and `svc eval` reads it, relative to the working directory. */
export const LOGIN_ENV_FILE = '.svc/svc.env';

/** An origin and a key, and the file they came from. */
export interface ServiceCredentials {
  baseUrl: string;
  apiKey: string;
  /** The env file (absolute). */
  file: string;
  /** The variable the key was read from. */
  keyVariable: 'SVC_API_KEY' | 'SVC_RW_KEY';
}

/**
 * Reads `SVC_BASE_URL` and the key from an env file. The key is `SVC_RW_KEY` when the file has one
 * (the env file of `svc serve`, whose `SVC_API_KEY` is its tracing key), else `SVC_API_KEY`.
 *
 * @param given - The `--env-file` value, or `undefined` for {@link LOGIN_ENV_FILE}.
 * @throws {@link CliError} with exit code 2 when the file or a variable is missing. Never holds
 *   the key.
 */
export async function readServiceCredentials(
  given: string | undefined,
  cwd: string,
): Promise<ServiceCredentials> {
  const file = resolve(cwd, given ?? LOGIN_ENV_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (given === undefined && code === 'ENOENT') {
      throw new CliError(
        `no env file at ${file}: run \`svc login\` first, or pass --env-file <file> (the svc.env that \`svc serve\` writes in its data directory works too).`,
        ExitCode.Usage,
      );
    }
    throw new CliError(`cannot read the env file ${file} (${code ?? 'error'}).`, ExitCode.Usage);
  }
  let variables: NodeJS.Dict<string>;
  try {
    variables = parseEnv(text);
  } catch {
    throw new CliError(`the env file ${file} is not a file of NAME=value lines.`, ExitCode.Usage);
  }
  const baseUrl = variables.SVC_BASE_URL?.trim();
  if (!baseUrl) {
    throw new CliError(`the env file ${file} sets no SVC_BASE_URL (the service origin).`, ExitCode.Usage);
  }
  const keyVariable = variables.SVC_RW_KEY ? 'SVC_RW_KEY' : 'SVC_API_KEY';
  const apiKey = variables[keyVariable]?.trim();
  if (!apiKey) {
    throw new CliError(
      `the env file ${file} sets no SVC_API_KEY (a Read-and-write key of the project).`,
      ExitCode.Usage,
    );
  }
  return { baseUrl, apiKey, file, keyVariable };
}
