/**
 * Test support: runs a script of the SDK's TypeScript sources in a child Node process (the Node
 * running the tests), for the tests that need a process of their own (a crash, a memory bound).
 * Node strips the types itself; a resolve hook maps the sources' `./x.js` imports to `./x.ts`.
 * The child gets its input as JSON in `argv[2]` and prints its result as its last line. Not part of
 * the package's public API.
 * @module
 */
import { fileURLToPath } from 'node:url';
import { spawnSource } from '@svc-run/test-support';

const SDK_DIRECTORY = fileURLToPath(new URL('../..', import.meta.url));

/** How a child ended, and what it printed. */
export interface SourceChildEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `script` with `input` (as JSON in `argv[2]`) in the SDK's directory, with the environment
 * of the tests except `NODE_OPTIONS`; `nodeFlags` go before the script (for example
 * `--expose-gc`). Resolves once the child has exited and its output is read.
 */
export function runSourceChild(
  script: string,
  input: unknown,
  nodeFlags: readonly string[] = [],
): Promise<SourceChildEnd> {
  const child = spawnSource([script, JSON.stringify(input)], {
    nodeFlags,
    cwd: SDK_DIRECTORY,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/**
 * The result a child printed: its last line, as JSON.
 *
 * @throws Error with the end of its standard error unless it exited with code 0.
 */
export function childResult<T>(end: SourceChildEnd): T {
  if (end.code !== 0) {
    throw new Error(`the child exited with ${end.code ?? end.signal}: ${end.stderr.slice(-2000)}`);
  }
  return JSON.parse(end.stdout.trim().split('\n').at(-1)!) as T;
}
