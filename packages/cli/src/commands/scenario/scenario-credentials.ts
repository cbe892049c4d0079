/**
 * The service origin and key `svc scenario` uses, read from an env file: the one `svc login`
 * writes (`.svc/svc.env`), or any file given with `--env-file` (the `svc.env` that `svc serve`
 * writes works too). The key is `SVC_RW_KEY` when the file has one (`svc serve`'s file, whose
 * `SVC_API_KEY` is its tracing key), else `SVC_API_KEY` — the rule of `svc eval`.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { CliError } from '../../cli-error.js';
import { ExitCode } from '../../exit-codes.js';

/** Where `svc login` writes its env file, relative to the working directory. */
export const DEFAULT_ENV_FILE = '.svc/svc.env';

/** An origin and a key. */
export interface ScenarioCredentials {
  baseUrl: string;
  apiKey: string;
  file: string;
}

/**
 * Reads the credentials of `given` (else {@link DEFAULT_ENV_FILE}) resolved against `cwd`.
 *
 * @throws {@link CliError} (usage, exit 2) naming the file and the missing variable; never a key.
 */
export async function readScenarioCredentials(
  given: string | undefined,
  cwd: string,
): Promise<ScenarioCredentials> {
  const file = resolve(cwd, given ?? DEFAULT_ENV_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      given === undefined && code === 'ENOENT'
        ? `no env file at ${file}: run \`svc login\` first, or pass --env-file <file> (the svc.env that \`svc serve\` writes works too).`
        : `cannot read the env file ${file} (${code ?? 'error'}).`,
      ExitCode.Usage,
    );
  }
  let variables: NodeJS.Dict<string>;
  try {
    variables = parseEnv(text);
  } catch {
    throw new CliError(`the env file ${file} is not a file of NAME=value lines.`, ExitCode.Usage);
  }
  const baseUrl = variables.SVC_BASE_URL?.trim();
  if (!baseUrl)
    throw new CliError(`the env file ${file} sets no SVC_BASE_URL (the service origin).`, ExitCode.Usage);
  const apiKey = (variables.SVC_RW_KEY || variables.SVC_API_KEY)?.trim();
  if (!apiKey) {
    throw new CliError(
      `the env file ${file} sets no SVC_RW_KEY or SVC_API_KEY (a Read-and-write key).`,
      ExitCode.Usage,
    );
  }
  return { baseUrl, apiKey, file };
}
