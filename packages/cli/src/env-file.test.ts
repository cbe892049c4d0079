import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeEnvFile } from './env-file.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-env-file-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function modeOf(path: string): Promise<number> {
  return (await stat(path)).mode & 0o777;
}

describe('writeEnvFile', () => {
  it('writes NAME=value lines after the comment, readable by Node, with mode 0600', async () => {
    const path = join(dir, 'svc.env');
    const variables = {
      SVC_BASE_URL: 'http://[::1]:4318',
      SVC_API_KEY: 'svc_tracing_AbC-12_xyz',
    };
    await writeEnvFile(path, variables, { comment: 'first line\nsecond line' });

    expect(await readFile(path, 'utf8')).toBe(
      '# first line\n# second line\nSVC_BASE_URL=http://[::1]:4318\nSVC_API_KEY=svc_tracing_AbC-12_xyz\n',
    );
    expect(parseEnv(await readFile(path, 'utf8'))).toEqual(variables);
    expect(await modeOf(path)).toBe(0o600);
    expect(await readdir(dir)).toEqual(['svc.env']);
  });

  it('replaces an existing, more open file by a 0600 one and leaves no temporary file', async () => {
    const path = join(dir, 'svc.env');
    await writeFile(path, 'OLD=1\n', { mode: 0o644 });
    expect(await modeOf(path)).toBe(0o644);

    await writeEnvFile(path, { NEW: '2' });

    expect(await readFile(path, 'utf8')).toBe('NEW=2\n');
    expect(await modeOf(path)).toBe(0o600);
    expect(await readdir(dir)).toEqual(['svc.env']);
  });

  it('leaves readers a complete file while writers race', async () => {
    const path = join(dir, 'svc.env');
    const versions = Array.from({ length: 20 }, (_, i) => ({ A: `a${i}`, B: `b${i}`, C: `c${i}` }));
    await Promise.all(versions.map((variables) => writeEnvFile(path, variables)));

    const final = parseEnv(await readFile(path, 'utf8'));
    expect(versions).toContainEqual(final);
    expect(await readdir(dir)).toEqual(['svc.env']);
  });

  it.each([
    [
      'a name that is not a variable name',
      { 'BAD-NAME': 'x' },
      'Invalid environment variable name: "BAD-NAME"',
    ],
    ['a value with a newline', { KEY: 'secret\nINJECTED=1' }, 'The value of KEY holds characters'],
    ['a value needing quotes', { KEY: 'secret value' }, 'The value of KEY holds characters'],
    ['a value with a quote', { KEY: "it's" }, 'The value of KEY holds characters'],
  ])('rejects %s, never echoing the value, and keeps the old file', async (_, variables, message) => {
    const path = join(dir, 'svc.env');
    await writeFile(path, 'OLD=1\n', { mode: 0o600 });

    const failure = writeEnvFile(path, variables);
    await expect(failure).rejects.toThrow(TypeError);
    await expect(failure).rejects.toThrow(message);
    await expect(failure).rejects.not.toThrow(/secret|it's/);

    expect(await readFile(path, 'utf8')).toBe('OLD=1\n');
    expect(await readdir(dir)).toEqual(['svc.env']);
  });

  it('fails without writing anything when the directory does not exist', async () => {
    await expect(writeEnvFile(join(dir, 'missing', 'svc.env'), { A: '1' })).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(await readdir(dir)).toEqual([]);
  });
});
