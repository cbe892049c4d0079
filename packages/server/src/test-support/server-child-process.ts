/**
 * Starts `server-child.ts` (the reference server) in a child Node process from source: Node strips
 * the types, and a resolve hook maps the sources' `./x.js` imports to `./x.ts`.
 * Not part of the package's public API.
 * @module
 */
import type { ChildProcess } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { spawnSource } from '@svc-run/test-support';
import type { ProjectKeys } from '../project/project.js';

const CHILD = fileURLToPath(new URL('./server-child.ts', import.meta.url));

/** A reference server running in a child process. */
export interface ServerChild {
  origin: string;
  keys: ProjectKeys;
  dataDir: string;
  /** The child's peak resident set size so far, in bytes. */
  maxRss(): Promise<number>;
  /** The child's resident set size now, in bytes. */
  rss(): Promise<number>;
  /** Bytes of request bodies the child's process-wide body budget has charged now. */
  bodyBytes(): Promise<number>;
  /** Runs a full garbage collection in the child. */
  collectGarbage(): Promise<void>;
  /** The child's process ID. */
  pid: number;
  /** Closes the server and waits for the process to exit. */
  close(): Promise<void>;
  /** Ends the process with SIGKILL (nothing is closed) and waits for it to exit. */
  kill(): Promise<void>;
}

async function nextLine(lines: AsyncIterator<string>, child: ChildProcess): Promise<string> {
  const next = await lines.next();
  if (next.done) throw new Error(`the server child exited (code ${child.exitCode})`);
  return next.value;
}

/**
 * Starts the server child on `dataDir` with the Node running the tests; `options` (JSON-able
 * `startServer` options) are added to its start.
 */
export async function spawnServerChild(
  dataDir: string,
  options: Record<string, unknown> = {},
): Promise<ServerChild> {
  const child = spawnSource([CHILD, dataDir, JSON.stringify(options)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const reader: Interface = createInterface({ input: child.stdout! });
  const lines = reader[Symbol.asyncIterator]();
  const started = JSON.parse(await nextLine(lines, child)) as {
    origin: string;
    keys: ProjectKeys;
    dataDir: string;
  };
  // One question at a time: each answer is the next line.
  let queue: Promise<unknown> = Promise.resolve();
  const ask = <T>(command: string): Promise<T> => {
    const answer = queue.then(async () => {
      child.stdin!.write(`${command}\n`);
      return JSON.parse(await nextLine(lines, child)) as T;
    });
    queue = answer.catch(() => undefined);
    return answer;
  };
  return {
    ...started,
    pid: child.pid!,
    async maxRss() {
      return (await ask<{ maxRss: number }>('rss')).maxRss;
    },
    async rss() {
      return (await ask<{ rss: number }>('rss')).rss;
    },
    async collectGarbage() {
      await ask<Record<string, never>>('gc');
    },
    async bodyBytes() {
      return (await ask<{ bodyBytes: number }>('bodies')).bodyBytes;
    },
    async close() {
      child.stdin!.write('close\n');
      await exited;
      reader.close();
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
      reader.close();
    },
  };
}
