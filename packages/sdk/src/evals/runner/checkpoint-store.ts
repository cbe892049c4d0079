/**
 * The checkpoint directory of a local runner: which run it belongs to, a lock held while a runner
 * uses it, and one JSON record per case (or item), each replaced durably and whole.
 *
 * Layout:
 * - `checkpoint.json`: `{ format, version, runner, id }`, the run the directory is dedicated to
 *   (written once; IDs are UUIDs, so the origin is not part of it: a local server may come back on
 *   another port);
 * - `lock`: `{ pid, host }` of the runner using it; a lock left by a process that ended on this
 *   machine is taken over;
 * - `records/<name>.json`: the records;
 * - `.gitignore`: `*`, so that the directory is never committed.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SvcError } from '../../errors/svc-error.js';
import { syncDirectory, TEMP_SUFFIX, writeFileDurably } from './durable-write.js';

/** The run a checkpoint directory is dedicated to. */
export interface CheckpointIdentity {
  runner: 'runExperiment' | 'rescore';
  /** The experiment ID (`runExperiment`) or the run ID (`rescore`). */
  id: string;
}

const FORMAT = 'svc-run.checkpoint';
const VERSION = 1;
const RECORD_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
/** How long a runner waits for another one taking over a stale lock (a read and an unlink). */
const TAKEOVER_WAIT_MILLIS = 5_000;

interface LockOwner {
  pid: number;
  host: string;
  /** Random per lock taken, so that two locks of the same process are told apart. */
  token: string;
}

/** True when `holder` names a process of this host (`owner`'s) other than this one that has ended. */
function endedHere(holder: Partial<LockOwner>, owner: LockOwner): boolean {
  return (
    holder.host === owner.host &&
    typeof holder.pid === 'number' &&
    holder.pid !== process.pid &&
    !isAlive(holder.pid)
  );
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The owner a lock file's text names, or `{}` when it cannot be read as one. */
function parseOwner(text: string): Partial<LockOwner> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Partial<LockOwner>) : {};
  } catch {
    return {}; // a lock file being written (or torn): it names no owner yet
  }
}

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new SvcError(
      `The checkpoint file ${path} is not valid JSON: something other than the runner changed the checkpoint directory. Restore it, or run again with a new directory (work already done is then refused as uncertain).`,
    );
  }
}

function describeIdentity(identity: Partial<CheckpointIdentity>): string {
  const subject = identity.runner === 'rescore' ? 'run' : 'experiment';
  return `${String(identity.runner)} of ${subject} ${String(identity.id)}`;
}

/** A checkpoint directory opened by one runner. */
export class CheckpointStore {
  readonly directory: string;
  readonly #records: string;
  readonly #takeoverWaitMillis: number;
  #closed = false;

  private constructor(directory: string, takeoverWaitMillis: number) {
    this.directory = directory;
    this.#records = join(directory, 'records');
    this.#takeoverWaitMillis = takeoverWaitMillis;
  }

  /**
   * Opens (creating when missing) the checkpoint directory of `identity`, and locks it.
   *
   * @param takeoverWaitMillis - How long to wait for another runner taking over a stale lock before
   *   giving up (default 5 s). Tests of runners racing in one process pass `Infinity`: the other
   *   runner always ends its takeover, and their outcome must not depend on how soon.
   * @throws TypeError when the directory belongs to another run; {@link SvcError} when another
   *   live runner holds its lock.
   */
  static async open(
    directory: string,
    identity: CheckpointIdentity,
    takeoverWaitMillis = TAKEOVER_WAIT_MILLIS,
  ): Promise<CheckpointStore> {
    const store = new CheckpointStore(directory, takeoverWaitMillis);
    await mkdir(store.#records, { recursive: true });
    await store.#lock();
    try {
      await store.#claim(identity);
      await store.#removeTemporaryFiles();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  /** The record `name`, or `undefined` when none was written. */
  async read<T>(name: string): Promise<T | undefined> {
    return (await readJson(this.#path(name))) as T | undefined;
  }

  /** Replaces the record `name` durably (see `writeFileDurably`). */
  async write(name: string, value: unknown): Promise<void> {
    if (this.#closed) throw new Error('the checkpoint store is closed');
    await writeFileDurably(this.#path(name), JSON.stringify(value));
  }

  /** Releases the lock. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await rm(join(this.directory, 'lock'), { force: true });
  }

  #path(name: string): string {
    if (!RECORD_NAME.test(name)) throw new Error(`invalid checkpoint record name ${JSON.stringify(name)}`);
    return join(this.#records, `${name}.json`);
  }

  /** Takes the lock: a file created whole, atomically (written aside, then hard-linked in place). */
  async #lock(): Promise<void> {
    const path = join(this.directory, 'lock');
    const owner: LockOwner = { pid: process.pid, host: hostname(), token: randomBytes(8).toString('hex') };
    // Not a `.tmp` name: another runner opening the directory must not remove it.
    const temporary = join(this.directory, `.lock.${randomBytes(6).toString('hex')}.pending`);
    await writeFile(temporary, JSON.stringify(owner), { flag: 'wx' });
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          await link(temporary, path);
          await syncDirectory(this.directory);
          return;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw error;
        }
        // Unreadable: the lock was released between the link and this read; try again.
        const held = await readFile(path, 'utf8').catch(() => undefined);
        if (held === undefined) continue; // released meanwhile
        const holder = parseOwner(held);
        if (endedHere(holder, owner)) {
          await this.#removeStaleLock(path, held, owner); // left by a runner that ended: take it over
          continue;
        }
        const sameHost = holder.host === owner.host;
        if (typeof holder.pid !== 'number') {
          throw new SvcError(
            `The checkpoint directory ${this.directory} has a lock file that names no runner: if no runner is running there, delete its lock file.`,
          );
        }
        throw new SvcError(
          sameHost
            ? `The checkpoint directory ${this.directory} is in use by process ${String(holder.pid)}: one runner at a time may use it. Wait for that runner to end.`
            : `The checkpoint directory ${this.directory} is in use by process ${String(holder.pid)} on host ${String(holder.host)}: one runner at a time may use it. If no runner is running there, delete its lock file.`,
        );
      }
    } finally {
      await rm(temporary, { force: true });
    }
  }

  /**
   * Removes the lock at `path` if it is still the stale one read (`stale`, its text). Several
   * runners may find the same stale lock at once; each removes it only while holding the takeover
   * guard (`lock.takeover`, created exclusively), after reading it again, so that none removes a
   * lock another runner took meanwhile. The guard is held for a read and an unlink; one left by a
   * runner that ended inside that moment is removed.
   */
  async #removeStaleLock(path: string, stale: string, owner: LockOwner): Promise<void> {
    const guard = join(this.directory, 'lock.takeover');
    const deadline = Date.now() + this.#takeoverWaitMillis;
    for (;;) {
      try {
        await writeFile(guard, JSON.stringify(owner), { flag: 'wx' });
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      // Unreadable: the guard was removed meanwhile (its owner finished); no owner to check.
      const holder = parseOwner(await readFile(guard, 'utf8').catch(() => ''));
      if (endedHere(holder, owner)) {
        await rm(guard, { force: true });
      } else if (Date.now() > deadline) {
        throw new SvcError(
          `The checkpoint directory ${this.directory} is being taken over by another runner. If no runner is running there, delete its lock.takeover file.`,
        );
      } else {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    try {
      // Unreadable: the stale lock is gone already, nothing to remove.
      if ((await readFile(path, 'utf8').catch(() => undefined)) === stale) await unlink(path);
    } finally {
      await rm(guard, { force: true });
    }
  }

  async #claim(identity: CheckpointIdentity): Promise<void> {
    const path = join(this.directory, 'checkpoint.json');
    const saved = (await readJson(path)) as
      | (Partial<CheckpointIdentity> & { format?: unknown; version?: unknown })
      | undefined;
    if (saved === undefined) {
      await writeFileDurably(join(this.directory, '.gitignore'), '# checkpoints of a local runner\n*\n');
      await writeFileDurably(
        path,
        JSON.stringify({ format: FORMAT, version: VERSION, ...identity }, null, 2),
      );
      return;
    }
    if (saved.format !== FORMAT || saved.version !== VERSION) {
      throw new TypeError(
        `checkpointDirectory ${this.directory} holds files that are not a checkpoint of this runner version; use a new, dedicated directory`,
      );
    }
    if (saved.runner !== identity.runner || saved.id !== identity.id) {
      throw new TypeError(
        `checkpointDirectory ${this.directory} is dedicated to ${describeIdentity(saved)}, not ${describeIdentity(identity)}; use one directory per run`,
      );
    }
  }

  async #removeTemporaryFiles(): Promise<void> {
    for (const directory of [this.directory, this.#records]) {
      for (const name of await readdir(directory)) {
        if (name.startsWith('.') && name.endsWith(TEMP_SUFFIX))
          await rm(join(directory, name), { force: true });
      }
    }
  }
}
