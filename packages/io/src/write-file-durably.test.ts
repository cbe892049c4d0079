import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type DurableWriteFs, writeFileDurably } from './write-file-durably.js';

const directories: string[] = [];
function directory(): string {
  const path = mkdtempSync(join(tmpdir(), 'svc-durable-'));
  directories.push(path);
  return path;
}
afterEach(() => {
  for (const path of directories.splice(0)) rmSync(path, { recursive: true, force: true });
});

/**
 * Node's `fs/promises`, recording each call that matters for durability, in order, with the path it
 * was about: `open`, `sync`, `close` of a handle; `rename`; `rm`. `failSync` makes the file's fsync
 * fail, as a full disk would.
 */
function recordingFs(dir: string, options: { failSync?: boolean } = {}) {
  const calls: string[] = [];
  const name = (path: string) => (path === dir ? '<dir>' : path.endsWith('.tmp') ? '<temp>' : path);
  const seam: DurableWriteFs = {
    async open(path, flags, mode) {
      const handle = await fs.open(path, flags, mode);
      const shown = name(String(path));
      calls.push(`open ${shown}`);
      return new Proxy(handle, {
        get(target, property) {
          const value = Reflect.get(target, property, target);
          if (property === 'sync') {
            return async () => {
              calls.push(`sync ${shown}`);
              if (options.failSync && shown === '<temp>')
                throw Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' });
              return target.sync();
            };
          }
          if (property === 'close') {
            return () => {
              calls.push(`close ${shown}`);
              return target.close();
            };
          }
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    },
    async rename(from, to) {
      calls.push(`rename ${name(String(from))} → ${name(String(to))}`);
      return fs.rename(from, to);
    },
    async rm(path, rmOptions) {
      calls.push(`rm ${name(String(path))}`);
      return fs.rm(path, rmOptions);
    },
  };
  return { seam, calls };
}

describe('writeFileDurably', () => {
  it('fsyncs the file before the rename and the directory after it', async () => {
    // A rename is durable only once its directory is synced: without it, a crash of the machine
    // just after the write can leave the old file (or none) though the write resolved.
    const dir = directory();
    const path = join(dir, 'credentials.json');
    const { seam, calls } = recordingFs(dir);
    await writeFileDurably(path, '{"a":1}', { fs: seam });
    expect(calls).toEqual([
      'open <temp>',
      'sync <temp>',
      'close <temp>',
      `rename <temp> → ${path}`,
      'open <dir>',
      'sync <dir>',
      'close <dir>',
    ]);
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}');
  });

  it('replaces a file whole and leaves no temporary file behind', async () => {
    const dir = directory();
    const path = join(dir, 'record.json');
    await writeFileDurably(path, '{"a":1}');
    await writeFileDurably(path, '{"a":2}');
    expect(readFileSync(path, 'utf8')).toBe('{"a":2}');
    expect(readdirSync(dir)).toEqual(['record.json']);
  });

  it('sets the mode exactly when given, whatever the umask', async () => {
    const dir = directory();
    const path = join(dir, 'secret');
    const umask = process.umask(0o077);
    try {
      await writeFileDurably(join(dir, 'default'), 'x');
    } finally {
      process.umask(umask);
    }
    await writeFileDurably(path, 'x', { mode: 0o600 });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    await writeFileDurably(path, 'y', { mode: 0o640 });
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(statSync(join(dir, 'default')).mode & 0o777).toBe(0o600);
  });

  it('rejects when the file cannot be written, leaving the directory as it was', async () => {
    const dir = directory();
    writeFileSync(join(dir, 'keep.json'), 'old');
    await expect(writeFileDurably(join(dir, 'missing', 'x.json'), 'new')).rejects.toThrow(/ENOENT/);
    await expect(writeFileDurably(join(dir, 'keep.json', 'x.json'), 'new')).rejects.toThrow(/ENOTDIR/);
    expect(readdirSync(dir)).toEqual(['keep.json']);
    expect(readFileSync(join(dir, 'keep.json'), 'utf8')).toBe('old');
  });

  it('removes its temporary file and keeps the old content when the fsync fails', async () => {
    const dir = directory();
    const path = join(dir, 'keep.json');
    writeFileSync(path, 'old');
    const { seam, calls } = recordingFs(dir, { failSync: true });
    await expect(writeFileDurably(path, 'new', { fs: seam })).rejects.toThrow('ENOSPC');
    expect(calls).toEqual(['open <temp>', 'sync <temp>', 'close <temp>', 'rm <temp>']);
    expect(readdirSync(dir)).toEqual(['keep.json']);
    expect(readFileSync(path, 'utf8')).toBe('old');
  });
});
