/**
 * Test support: runs the built `svc` on a pseudo-terminal (`run-in-terminal.py`, Python's standard
 * `pty` module; Python 3 is a requirement of the test command), typing answers to its prompts.
 * @module
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BUILT_BIN } from '../spawn-built-cli.js';

const HELPER = fileURLToPath(new URL('./run-in-terminal.py', import.meta.url));

/** How a command on a terminal ended: its exit code and everything the terminal showed. */
export interface TerminalRun {
  code: number | null;
  shown: string;
}

/**
 * Runs `svc ...args` in `cwd` on a terminal; each `[prompt, answer]` is typed once its prompt has
 * appeared. `env` is added to the test process's environment (which loses `NODE_OPTIONS`).
 */
export function runBuiltCliInTerminal(
  args: readonly string[],
  cwd: string,
  answers: readonly (readonly [string, string])[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<TerminalRun> {
  const { NODE_OPTIONS: _ignored, ...inherited } = process.env;
  const spec = JSON.stringify({ argv: [process.execPath, BUILT_BIN, ...args], cwd, answers });
  return new Promise((resolve, reject) => {
    execFile(
      'python3',
      [HELPER, spec],
      { env: { ...inherited, ...env }, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
      (error, stdout) => {
        if (error !== null && typeof error.code !== 'number') {
          reject(error);
          return;
        }
        resolve({ code: error === null ? 0 : (error.code as number), shown: stdout });
      },
    );
  });
}
