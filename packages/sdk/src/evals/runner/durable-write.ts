/**
 * Durable file writes for checkpoints: a file is replaced whole or not at all, and once a write
 * resolves it survives a crash of the process or of the machine.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The suffix of temporary files; a leftover one (from a crash mid-write) is never read. */
export const TEMP_SUFFIX = '.tmp';

/**
 * Writes `text` to `path` durably: into a temporary file beside it, fsync, rename over `path`,
 * then fsync the directory so that the rename itself is on disk. A reader sees the old content or
 * the new one, never a part.
 */
export async function writeFileDurably(path: string, text: string): Promise<void> {
  const directory = dirname(path);
  const temporary = join(directory, `.${basename(path)}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
  const handle = await open(temporary, 'wx');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(directory);
}

/**
 * Flushes a directory's entries (new names, renames) to disk. Platforms that cannot open a
 * directory for fsync (Windows) make their renames durable by themselves; their refusal is ignored.
 */
export async function syncDirectory(directory: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EBADF') throw error;
  } finally {
    await handle?.close();
  }
}
