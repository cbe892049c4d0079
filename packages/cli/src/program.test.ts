import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from './exit-codes.js';
import { run } from './program.js';
import { CapturedOutput } from './testing/captured-output.js';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
  description: string;
};

let cwd: string;

beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'svc-program-'));
});

afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

async function svc(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new CapturedOutput();
  const stderr = new CapturedOutput();
  const code = await run(['node', 'svc', ...args], { stdout, stderr, cwd, signal: AbortSignal.abort() });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('svc help', () => {
  it.each([['--help'], ['-h'], ['help']])('`svc %s` prints the usage on stdout and exits 0', async (flag) => {
    const { code, stdout, stderr } = await svc(flag);
    expect(code).toBe(ExitCode.Ok);
    expect(stdout).toMatch(/^Usage: svc \[options\] \[command\]/);
    expect(stdout).toMatch(/^ {2}serve \[options\] +Start the reference service/m);
    expect(stderr).toBe('');
  });

  it.each([
    ['serve', '--help'],
    ['help', 'serve'],
  ])('`svc %s %s` prints the usage of serve and exits 0', async (...args) => {
    const { code, stdout, stderr } = await svc(...args);
    expect(code).toBe(ExitCode.Ok);
    expect(stdout).toMatch(/^Usage: svc serve \[options\]/);
    expect(stdout).toContain('--port <number>');
    expect(stdout).toContain('--host <host>');
    expect(stdout).toContain('--data <dir>');
    // Commander wraps option descriptions at the help width: compare with spacing collapsed.
    expect(stdout.replace(/\s+/g, ' ')).toContain('(default: ".svc-data")');
    expect(stdout).toContain('--allow-private-targets');
    expect(stdout).toContain('svc.env (mode 0600)');
    expect(stderr).toBe('');
    expect(existsSync(join(cwd, '.svc-data'))).toBe(false);
  });
});

describe('svc --version', () => {
  it.each([['--version'], ['-V']])(
    "`svc %s` prints package.json's version on stdout and exits 0",
    async (flag) => {
      const { code, stdout, stderr } = await svc(flag);
      expect(code).toBe(ExitCode.Ok);
      expect(stdout).toBe(`${manifest.version}\n`);
      expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(stderr).toBe('');
    },
  );

  it('is listed in the usage', async () => {
    const { stdout } = await svc('--help');
    expect(stdout).toMatch(/^ {2}-V, --version +print the version of svc$/m);
  });
});

describe('what svc says it does', () => {
  it('promises only the commands it has: serve, eval, login, mcp and scenario', async () => {
    const { stdout } = await svc('--help');
    expect(stdout).toContain(
      '\nServe the reference service, run evaluations, log in, and serve MCP over stdio.\n',
    );
    const commands = stdout.slice(stdout.indexOf('Commands:')).match(/^ {2}\S+/gm);
    expect(commands).toEqual(['  serve', '  eval', '  login', '  mcp', '  scenario', '  help']);
    expect(manifest.description).toBe(
      'The svc command: serve the reference service locally, run direct-case evaluations, log in, and serve its MCP tools over stdio.',
    );
  });
});

describe('usage errors exit 2 with a message on stderr', () => {
  it('without a command, prints the usage on stderr', async () => {
    const { code, stdout, stderr } = await svc();
    expect(code).toBe(ExitCode.Usage);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^Usage: svc \[options\] \[command\]/);
  });

  it.each([
    [['--bogus'], "error: unknown option '--bogus'"],
    [['serve', '--bogus'], "error: unknown option '--bogus'"],
    [['serve', '--port'], "error: option '--port <number>' argument missing"],
    [['bogus'], "error: unknown command 'bogus'"],
    // Help for a command that does not exist is a usage error, not the top-level help.
    [['bogus', '--help'], "error: unknown command 'bogus'"],
    [['bogus', '-h'], "error: unknown command 'bogus'"],
    // The program's options come before the command.
    [['serve', '--version'], "error: unknown option '--version'"],
    [['serve', 'extra'], "error: too many arguments for 'serve'. Expected 0 arguments but got 1: extra."],
    [
      ['serve', '--host', ' '],
      "error: option '--host <host>' argument ' ' is invalid. Expected a nonblank value.",
    ],
    [
      ['serve', '--data', ''],
      "error: option '--data <dir>' argument '' is invalid. Expected a nonblank value.",
    ],
  ])('svc %j', async (args, message) => {
    const { code, stdout, stderr } = await svc(...args);
    expect(code).toBe(ExitCode.Usage);
    expect(stdout).toBe('');
    expect(stderr).toBe(`${message}\n(add --help for usage)\n`);
    expect(existsSync(join(cwd, '.svc-data'))).toBe(false);
  });

  it.each(['abc', '-1', '65536', '1.5', '', '0x50'])('svc serve --port %j', async (port) => {
    const { code, stdout, stderr } = await svc('serve', '--port', port);
    expect(code).toBe(ExitCode.Usage);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `error: option '--port <number>' argument '${port}' is invalid. Expected an integer from 0 to 65535.\n(add --help for usage)\n`,
    );
    expect(existsSync(join(cwd, '.svc-data'))).toBe(false);
  });
});
