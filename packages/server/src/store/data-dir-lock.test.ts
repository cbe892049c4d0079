import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { spawnSource } from '@svc-run/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirectoryLockedError, DataDirLock, LOCK_HOLDER_FILE } from './data-dir-lock.js';

const LOCK_MODULE = fileURLToPath(new URL('./data-dir-lock.ts', import.meta.url));
const dirs: string[] = [];
const held: DataDirLock[] = [];
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const lock of held.splice(0)) lock.release();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-lock-'));
  dirs.push(dir);
  return dir;
}

async function acquire(dataDir: string): Promise<DataDirLock> {
  const lock = await DataDirLock.acquire(dataDir);
  held.push(lock);
  return lock;
}

/**
 * Another process trying the lock of `dataDir`: prints `locked` or `refused`, then holds what it
 * got until killed (`hold`) or exits (`try`).
 */
function otherProcess(dataDir: string, mode: 'hold' | 'try') {
  const code = `
    import { DataDirLock } from ${JSON.stringify(LOCK_MODULE)};
    try {
      await DataDirLock.acquire(${JSON.stringify(dataDir)});
      console.log('locked');
    } catch (error) {
      console.log(error.name === 'DataDirectoryLockedError' ? 'refused' : 'failed: ' + error.message);
    }
    if (${JSON.stringify(mode)} === 'hold') setInterval(() => {}, 60_000);`;
  const child = spawnSource(['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  return {
    child,
    exited,
    async outcome(): Promise<string> {
      const next = await lines.next();
      if (next.done) throw new Error('the other process printed nothing');
      return next.value;
    },
  };
}

describe('DataDirLock', () => {
  it('lets one holder at a time in this process, and names the holder in the refusal', async () => {
    const dataDir = tempDir();
    const lock = await acquire(dataDir);
    let refusal: unknown;
    try {
      await acquire(dataDir);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DataDirectoryLockedError);
    expect((refusal as DataDirectoryLockedError).holder).toMatchObject({
      pid: process.pid,
      host: hostname(),
    });
    expect((refusal as Error).message).toBe(
      `The data directory ${dataDir} is in use by another svc server (process ${process.pid}, since ${(refusal as DataDirectoryLockedError).holder!.since}). One server at a time may use a data directory: stop that server, or use another data directory.`,
    );
    await lock.listening('http://127.0.0.1:4318');
    await expect(acquire(dataDir)).rejects.toThrow(
      /\(process \d+, listening on http:\/\/127\.0\.0\.1:4318, since /,
    );
    lock.release();
    expect(existsSync(join(dataDir, LOCK_HOLDER_FILE))).toBe(false);
    await acquire(dataDir);
  });

  it('refuses another process, also after a refusal in this process (which must not drop the lock)', async () => {
    const dataDir = tempDir();
    await acquire(dataDir);
    await expect(acquire(dataDir)).rejects.toThrow(DataDirectoryLockedError);
    const other = otherProcess(dataDir, 'try');
    expect(await other.outcome()).toBe('refused');
    await other.exited;
  });

  it('is refused while another process holds it, and taken at once after that process is killed (SIGKILL)', async () => {
    const dataDir = tempDir();
    const other = otherProcess(dataDir, 'hold');
    expect(await other.outcome()).toBe('locked');
    const holder = JSON.parse(readFileSync(join(dataDir, LOCK_HOLDER_FILE), 'utf8')) as { pid: number };
    expect(holder.pid).toBe(other.child.pid);
    await expect(acquire(dataDir)).rejects.toThrow(`(process ${other.child.pid}, since `);

    other.child.kill('SIGKILL');
    await other.exited;
    // The operating system released the lock with the process: no stale lock to wait for or guess about.
    const lock = await acquire(dataDir);
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_HOLDER_FILE), 'utf8'))).toMatchObject({
      pid: process.pid,
    });
    lock.release();
  });
});
