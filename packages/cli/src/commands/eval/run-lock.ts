/**
 * The lock of a `svc eval` checkpoint directory: one `svc eval` at a time works in it. The lock is a
 * file naming the process holding it, created exclusively; a lock left by a process of this
 * machine that has ended (a crash, SIGKILL) is taken over.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { link, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { CliError } from '../../cli-error.js';
import { ExitCode } from '../../exit-codes.js';

interface Holder {
  pid?: number;
  host?: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseHolder(text: string): Holder {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Holder) : {};
  } catch {
    return {};
  }
}

/**
 * Takes the lock of `directory` (its `eval.lock` file) and resolves to its release.
 *
 * @throws {@link CliError} (exit code 1) when another live process holds it.
 */
export async function lockRunDirectory(directory: string): Promise<() => Promise<void>> {
  const path = join(directory, 'eval.lock');
  const me = { pid: process.pid, host: hostname(), token: randomBytes(8).toString('hex') };
  const pending = join(directory, `.eval.lock.${me.token}.pending`);
  await writeFile(pending, JSON.stringify(me), { flag: 'wx' });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await link(pending, path); // atomic: the lock appears whole, or not at all
        return async () => {
          if ((await readFile(path, 'utf8').catch(() => '')) === JSON.stringify(me)) await unlink(path);
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw error;
      }
      const held = await readFile(path, 'utf8').catch(() => undefined);
      if (held === undefined) continue;
      const holder = parseHolder(held);
      const ended =
        holder.host === me.host &&
        typeof holder.pid === 'number' &&
        holder.pid !== process.pid &&
        !isAlive(holder.pid);
      if (!ended) {
        throw new CliError(
          `the checkpoint directory ${directory} is in use by process ${String(holder.pid)}${holder.host === me.host ? '' : ` on ${String(holder.host)}`}: one svc eval at a time may use it. Wait for it to end${holder.host === me.host ? '' : ', or delete its eval.lock if it no longer runs'}.`,
          ExitCode.Failure,
        );
      }
      // Left by a process that ended: remove it if it is still that one (another svc eval starting
      // at the same moment may have taken it over already).
      if ((await readFile(path, 'utf8').catch(() => undefined)) === held) await rm(path, { force: true });
    }
  } finally {
    await rm(pending, { force: true });
  }
}
