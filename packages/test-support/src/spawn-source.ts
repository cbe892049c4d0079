/**
 * Running the packages' TypeScript sources in a child Node process (the Node running the tests),
 * for tests that need a process of their own (a crash, a memory bound, a lock held by another
 * process, the CLI as a user runs it). Node strips the types itself; the repository's resolve hook
 * maps the sources' `./x.js` imports to `./x.ts`.
 * @module
 */
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';

/** The resolve hook that lets Node run the sources (`./x.js` imports → `./x.ts`), for `--import`. */
export const TS_SOURCE_HOOKS = new URL('../../../scripts/ts-source-hooks.mjs', import.meta.url).href;

/** Options of {@link spawnSource}. */
export interface SpawnSourceOptions {
  /** Node flags before the script (for example `--expose-gc`, or `--input-type=module -e <code>`). */
  nodeFlags?: readonly string[];
  cwd?: string;
  stdio?: SpawnOptions['stdio'];
}

/**
 * Starts `node <flags> --import <hooks> <args…>` with the environment of the tests except
 * `NODE_OPTIONS` (vitest's own loaders must not reach the child).
 *
 * @example
 * ```ts
 * const child = spawnSource([script, JSON.stringify(input)], { stdio: ['ignore', 'pipe', 'pipe'] });
 * ```
 */
export function spawnSource(args: readonly string[], options: SpawnSourceOptions = {}): ChildProcess {
  const { NODE_OPTIONS: _ignored, ...env } = process.env;
  return spawn(
    process.execPath,
    [
      '--disable-warning=ExperimentalWarning',
      ...(options.nodeFlags ?? []),
      '--import',
      TS_SOURCE_HOOKS,
      ...args,
    ],
    { env, stdio: options.stdio ?? 'pipe', ...(options.cwd === undefined ? {} : { cwd: options.cwd }) },
  );
}
