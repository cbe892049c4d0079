/**
 * Starts `server-child.ts` (the reference server) in a child Node process from source: Node strips
 * the types, and a resolve hook maps the sources' `./x.js` imports to `./x.ts`.
 * Not part of the package's public API.
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ProjectKeys } from '../project/project.js';

const CHILD = fileURLToPath(new URL('./server-child.ts', import.meta.url));

const RESOLVE_TS_SOURCES = `
import { registerHooks } from 'node:module';
registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (error?.code === 'ERR_MODULE_NOT_FOUND' && /^\\.\\.?\\//.test(specifier) && specifier.endsWith('.js')) {
        return nextResolve(specifier.slice(0, -3) + '.ts', context);
      }
      throw error;
    }
  },
});
`;

/** A reference server running in a child process. */
export interface ServerChild {
  origin: string;
  keys: ProjectKeys;
  dataDir: string;
  /** The child's peak resident set size so far, in bytes. */
  maxRss(): Promise<number>;
  /** Closes the server and waits for the process to exit. */
  close(): Promise<void>;
}

async function nextLine(lines: AsyncIterator<string>, child: ChildProcess): Promise<string> {
  const next = await lines.next();
  if (next.done) throw new Error(`the server child exited (code ${child.exitCode})`);
  return next.value;
}

/** Starts the server child on `dataDir` with the Node running the tests. */
export async function spawnServerChild(dataDir: string): Promise<ServerChild> {
  const { NODE_OPTIONS: _ignored, ...env } = process.env;
  const child = spawn(
    process.execPath,
    [
      '--disable-warning=ExperimentalWarning',
      '--import',
      `data:text/javascript,${encodeURIComponent(RESOLVE_TS_SOURCES)}`,
      CHILD,
      dataDir,
    ],
    { env, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const reader: Interface = createInterface({ input: child.stdout });
  const lines = reader[Symbol.asyncIterator]();
  const started = JSON.parse(await nextLine(lines, child)) as {
    origin: string;
    keys: ProjectKeys;
    dataDir: string;
  };
  return {
    ...started,
    async maxRss() {
      child.stdin.write('rss\n');
      return (JSON.parse(await nextLine(lines, child)) as { maxRss: number }).maxRss;
    },
    async close() {
      child.stdin.write('close\n');
      await exited;
      reader.close();
    },
  };
}
