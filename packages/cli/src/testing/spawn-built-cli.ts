/**
 * Test support: runs the built `svc` executable (`bin/svc.mjs`, which loads `dist/bin.js`) in a
 * child Node process, as a user's shell would. Build the CLI first (`pnpm build`).
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CapturedOutput } from './captured-output.js';

/** The committed launcher of the `svc` executable. */
export const BUILT_BIN = fileURLToPath(new URL('../../bin/svc.mjs', import.meta.url));
const BUILT_PROGRAM = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

/** A running `svc` child process and its captured output. */
export interface BuiltCliProcess {
  child: ChildProcess;
  stdout: CapturedOutput;
  stderr: CapturedOutput;
  /** Settles when the process has exited and its output streams have closed. */
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Options of {@link spawnBuiltCli}. */
export interface SpawnBuiltCliOptions {
  /** Variables added to the test process's environment (which loses `NODE_OPTIONS`). */
  env?: NodeJS.ProcessEnv;
  /** Written to the child's stdin, which is then closed (else stdin is closed at once). */
  input?: string;
  /** Options of Node before the executable (`--import <module>` of a test). */
  nodeArgs?: readonly string[];
}

/** Starts the built `svc ...args` in `cwd` with the Node running the tests. */
export function spawnBuiltCli(
  args: readonly string[],
  cwd: string,
  options: SpawnBuiltCliOptions = {},
): BuiltCliProcess {
  if (!existsSync(BUILT_PROGRAM)) {
    throw new Error(`${BUILT_PROGRAM} does not exist: build the CLI first (npx -y pnpm@10.34.8 build).`);
  }
  const { NODE_OPTIONS: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), BUILT_BIN, ...args], {
    cwd,
    env: { ...inherited, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(options.input ?? '');
  const stdout = new CapturedOutput();
  const stderr = new CapturedOutput();
  child.stdout.setEncoding('utf8').on('data', (text: string) => stdout.write(text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => stderr.write(text));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  return { child, stdout, stderr, exit };
}

/** Runs the built `svc ...args` to its end. */
export async function runBuiltCli(
  args: readonly string[],
  cwd: string,
  options: SpawnBuiltCliOptions = {},
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const cli = spawnBuiltCli(args, cwd, options);
  const end = await cli.exit;
  return { ...end, stdout: cli.stdout.text, stderr: cli.stderr.text };
}
