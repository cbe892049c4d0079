/**
 * Durable replacement of small files (checkpoints, credentials, env files, lock holders): a file
 * is replaced whole or not at all, and once a write resolves it survives a crash of the process
 * or of the machine.
 * @module
 */
import { randomBytes } from 'node:crypto';
import * as nodeFs from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The suffix of temporary files; a leftover one (from a crash mid-write) is never read. */
export const TEMP_SUFFIX = '.tmp';

/** The file-system calls a durable write makes: Node's `fs/promises` unless replaced (tests). */
export type DurableWriteFs = Pick<typeof nodeFs, 'open' | 'rename' | 'rm'>;

/** Options of {@link writeFileDurably}. */
export interface WriteFileDurablyOptions {
  /**
   * The file's permission bits, set exactly (whatever the umask), e.g. `0o600` for a file holding
   * secrets. Unset: a new file's default (`0o666` less the umask).
   */
  mode?: number;
  /** The file-system calls; Node's `fs/promises` by default. */
  fs?: DurableWriteFs;
}

/**
 * Writes `text` to `path` durably: into a temporary file beside it (a new, hidden name ending in
 * {@link TEMP_SUFFIX}), fsync of the file, rename over `path`, then fsync of the directory so the
 * rename itself is on disk. A reader sees the old content or the new one, never a part; a failed
 * write removes its temporary file and leaves `path` as it was.
 *
 * @example
 * ```ts
 * await writeFileDurably(join(dataDir, 'credentials.json'), text, { mode: 0o600 });
 * ```
 */
export async function writeFileDurably(
  path: string,
  text: string,
  options: WriteFileDurablyOptions = {},
): Promise<void> {
  const fs = options.fs ?? nodeFs;
  const directory = dirname(path);
  const temporary = join(directory, `.${basename(path)}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
  const handle = await fs.open(temporary, 'wx', options.mode ?? 0o666);
  let renamed = false;
  try {
    try {
      if (options.mode !== undefined) await handle.chmod(options.mode);
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temporary, path);
    renamed = true;
  } finally {
    if (!renamed) await fs.rm(temporary, { force: true });
  }
  await syncDirectory(directory, fs);
}

/** Error codes of platforms that cannot fsync a directory (Windows); their renames are durable. */
const NO_DIRECTORY_SYNC = new Set(['EISDIR', 'EPERM', 'EINVAL', 'EBADF']);

/**
 * Flushes a directory's entries (new names, renames, removals) to disk. Platforms that cannot open
 * a directory for fsync (Windows) make their renames durable by themselves; their refusal is
 * ignored.
 */
export async function syncDirectory(directory: string, fs: DurableWriteFs = nodeFs): Promise<void> {
  let handle: nodeFs.FileHandle | undefined;
  try {
    handle = await fs.open(directory, 'r');
    await handle.sync();
  } catch (error) {
    if (!NO_DIRECTORY_SYNC.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    await handle?.close();
  }
}
