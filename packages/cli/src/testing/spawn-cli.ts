/**
 * Test support: runs the `svc` executable from source (`src/bin.ts`) in a child Node process.
 * Node strips the TypeScript types itself; a resolve hook maps the sources' `./x.js` imports to
 * `./x.ts`. `@svc-run/server` loads from its built `dist`, as for the published CLI.
 * @module
 */
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { spawnSource } from '@svc-run/test-support';
import { CapturedOutput } from './captured-output.js';

const SOURCE_BIN = fileURLToPath(new URL('../bin.ts', import.meta.url));

/** A running `svc` child process and its captured output. */
export interface CliProcess {
  child: ChildProcess;
  stdout: CapturedOutput;
  stderr: CapturedOutput;
  /** Settles when the process has exited and its output streams have closed. */
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `svc ...args` in `cwd` with the Node running the tests. */
export function spawnCli(args: readonly string[], cwd: string): CliProcess {
  const child = spawnSource([SOURCE_BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout = new CapturedOutput();
  const stderr = new CapturedOutput();
  child.stdout!.setEncoding('utf8').on('data', (text: string) => stdout.write(text));
  child.stderr!.setEncoding('utf8').on('data', (text: string) => stderr.write(text));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  return { child, stdout, stderr, exit };
}
