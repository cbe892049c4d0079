/**
 * One server per data directory: the lock a server holds on its data directory while it runs.
 *
 * The lock is an exclusive SQLite lock on `svc.lock` (a POSIX advisory lock underneath, held by
 * one `node:sqlite` connection for the server's life). The operating system releases it when the
 * process ends, however it ends: a server killed with SIGKILL leaves no lock to take over, so a
 * restart never waits, never guesses from a PID whether the holder is alive (PIDs are reused, and
 * a container's server is PID 1 at every start), and two servers can never both take a stale lock.
 * SQLite keeps the lock right between connections of one process too (a second server started by
 * the same process is refused), which a plain `fcntl` lock would not.
 *
 * Beside it, `svc.lock.json` names the holder (PID, host, start time, origin once listening) for
 * the message of a refused start; it is only information, never the lock. The lock file itself is
 * never opened other than through SQLite: closing any other descriptor of it would drop the
 * process's locks on it.
 * @module
 */
import { readFileSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { writeFileDurably } from '@svc-run/io';

/** The lock file in the data directory. */
export const LOCK_FILE = 'svc.lock';

/** The file naming the holder of the lock (information for a refused start). */
export const LOCK_HOLDER_FILE = 'svc.lock.json';

/** Who holds a data directory's lock, as its holder wrote it. */
export interface LockHolder {
  pid: number;
  host: string;
  /** When the holder took the lock (ISO 8601). */
  since: string;
  /** The holder's origin, once it listens. */
  origin?: string;
}

/** SQLite's "database is locked" (`SQLITE_BUSY`). */
const SQLITE_BUSY = 5;

/** True for SQLite's "database is locked" (by `errcode`, or by its text where `errcode` is missing). */
function isBusy(error: unknown): boolean {
  const { errcode, message } = error as { errcode?: unknown; message?: unknown };
  return errcode === SQLITE_BUSY || (errcode === undefined && message === 'database is locked');
}

function describeHolder(holder: LockHolder | undefined): string {
  if (holder === undefined) return '';
  const where = holder.origin === undefined ? '' : `, listening on ${holder.origin}`;
  const host = holder.host === hostname() ? '' : ` on host ${holder.host}`;
  return ` (process ${holder.pid}${host}${where}, since ${holder.since})`;
}

/** A start refused because another server holds the data directory's lock; nothing was changed. */
export class DataDirectoryLockedError extends Error {
  override readonly name = 'DataDirectoryLockedError';
  /** The data directory. */
  readonly dataDir: string;
  /** The holder, as it described itself (absent when it has not yet, or the file is unreadable). */
  readonly holder: LockHolder | undefined;

  constructor(dataDir: string, holder: LockHolder | undefined) {
    super(
      `The data directory ${dataDir} is in use by another svc server${describeHolder(holder)}. ` +
        'One server at a time may use a data directory: stop that server, or use another data directory.',
    );
    this.dataDir = dataDir;
    this.holder = holder;
  }
}

function readHolder(dataDir: string): LockHolder | undefined {
  try {
    const value = JSON.parse(readFileSync(join(dataDir, LOCK_HOLDER_FILE), 'utf8')) as Partial<LockHolder>;
    return typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.since === 'string'
      ? (value as LockHolder)
      : undefined;
  } catch {
    return undefined; // no holder file (yet), or one being replaced: the message goes without it
  }
}

/** The lock of one data directory, held until {@link release}. */
export class DataDirLock {
  readonly #dataDir: string;
  readonly #connection: DatabaseSync;
  readonly #holder: LockHolder;
  #released = false;

  private constructor(dataDir: string, connection: DatabaseSync) {
    this.#dataDir = dataDir;
    this.#connection = connection;
    this.#holder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  }

  /**
   * Takes the lock of `dataDir` (an existing directory), or throws without changing anything in it.
   *
   * @throws DataDirectoryLockedError when another server (of any process) holds it.
   */
  static async acquire(dataDir: string): Promise<DataDirLock> {
    let connection: DatabaseSync;
    try {
      connection = new DatabaseSync(join(dataDir, LOCK_FILE), { timeout: 0 });
    } catch (error) {
      throw new Error(`cannot lock the data directory ${dataDir}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    try {
      connection.exec('PRAGMA journal_mode = OFF');
      // In exclusive locking mode the connection keeps the lock its first write transaction takes.
      connection.exec('PRAGMA locking_mode = EXCLUSIVE');
      connection.exec('BEGIN EXCLUSIVE');
      connection.exec('COMMIT');
    } catch (error) {
      connection.close();
      if (isBusy(error)) {
        throw new DataDirectoryLockedError(dataDir, readHolder(dataDir));
      }
      throw error;
    }
    const lock = new DataDirLock(dataDir, connection);
    try {
      await lock.#describe();
    } catch (error) {
      lock.release();
      throw error;
    }
    return lock;
  }

  /** Adds the origin the server listens on to the holder file. */
  async listening(origin: string): Promise<void> {
    this.#holder.origin = origin;
    await this.#describe();
  }

  /** Releases the lock (the holder file first, so it never names a server that is gone). */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    rmSync(join(this.#dataDir, LOCK_HOLDER_FILE), { force: true });
    this.#connection.close();
  }

  #describe(): Promise<void> {
    return writeFileDurably(join(this.#dataDir, LOCK_HOLDER_FILE), `${JSON.stringify(this.#holder)}\n`, {
      mode: 0o600,
    });
  }
}
