/**
 * Writes env files (`NAME=value` lines) that hold secrets: private to the owner, and replaced
 * atomically so a reader never sees a partial file.
 * @module
 */
import { writeFileDurably } from '@svc-run/io';

/** Options of {@link writeEnvFile}. */
export interface WriteEnvFileOptions {
  /** Written first as `#` comment lines. */
  comment?: string;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Characters that need no quoting in POSIX shells, Node's `--env-file` and dotenv parsers.
const UNQUOTED_VALUE = /^[A-Za-z0-9_.:/@%+=,~[\]-]*$/;

function render(variables: Readonly<Record<string, string>>, comment: string | undefined): string {
  const lines = comment === undefined ? [] : comment.split(/\r?\n/).map((line) => `# ${line}`.trimEnd());
  for (const [name, value] of Object.entries(variables)) {
    if (!NAME.test(name)) throw new TypeError(`Invalid environment variable name: ${JSON.stringify(name)}`);
    // The value may be a secret: never echo it.
    if (typeof value !== 'string' || !UNQUOTED_VALUE.test(value)) {
      throw new TypeError(`The value of ${name} holds characters an env file cannot carry unquoted.`);
    }
    lines.push(`${name}=${value}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Writes `variables` as `NAME=value` lines to `path` with mode 0600, atomically and durably
 * (`writeFileDurably`: a temporary file in the same directory, flushed to disk, renamed over
 * `path`, then the directory flushed), so readers see either the previous file or the complete new
 * one.
 *
 * Values are written unquoted and must consist of URL- and key-safe characters
 * (`A-Z a-z 0-9 _ . : / @ % + = , ~ [ ] -`); names must be valid environment variable names.
 * Error messages never include a value.
 *
 * @param path - The env file to create or replace.
 * @param variables - Names and values, written in insertion order.
 * @param options - An optional leading comment.
 * @throws TypeError when a name or value cannot be written; the existing file is then untouched.
 *
 * @example
 * ```ts
 * await writeEnvFile('.svc-data/svc.env', { SVC_BASE_URL: 'http://127.0.0.1:4318' });
 * ```
 */
export async function writeEnvFile(
  path: string,
  variables: Readonly<Record<string, string>>,
  options: WriteEnvFileOptions = {},
): Promise<void> {
  await writeFileDurably(path, render(variables, options.comment), { mode: 0o600 });
}
