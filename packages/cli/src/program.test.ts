import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from './exit-codes.js';
import { run } from './program.js';
import { CapturedOutput } from './testing/captured-output.js';

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
