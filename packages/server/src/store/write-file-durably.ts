/**
 * Durable, private writes of small files in the data directory.
 * @module
 */
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';

/**
 * Writes `content` to `path` so that a crash leaves either the old file or the whole new one:
 * a temporary file (mode 0600) written and synced, then renamed over `path`.
 */
export function writeFileDurably(path: string, content: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}
