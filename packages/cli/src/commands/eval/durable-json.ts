/**
 * JSON files of `svc eval`'s run directories, replaced durably: a reader (or a rerun after a crash)
 * sees the previous content or the new one, never a part.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `value` as JSON to `path`: into a temporary file beside it, fsync, rename over `path`,
 * fsync of the directory (where the platform allows it).
 */
export async function writeJsonDurably(path: string, value: unknown): Promise<void> {
  const directory = dirname(path);
  const temporary = join(directory, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(value, null, 2)}\n`, 'utf8');
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
  let directoryHandle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    directoryHandle = await open(directory, 'r');
    await directoryHandle.sync();
  } catch {
    // Platforms that cannot fsync a directory (Windows) make renames durable by themselves.
  } finally {
    await directoryHandle?.close();
  }
}

/** The JSON in `path`, or `undefined` when there is no such file. */
export async function readJson<T>(path: string): Promise<T | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(
      `${path} is not valid JSON: something other than svc eval changed it. Restore it, or use another --checkpoint-dir.`,
    );
  }
}
