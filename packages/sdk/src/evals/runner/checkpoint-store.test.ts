import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SvcError } from '../../errors/svc-error.js';
import { type CheckpointIdentity, CheckpointStore } from './checkpoint-store.js';

const identity: CheckpointIdentity = {
  runner: 'runExperiment',
  id: '0b7c3c9e-8d2a-4f57-9a43-2f6d0c1e5b8a',
};
const directories: string[] = [];
function directory(): string {
  const path = mkdtempSync(join(tmpdir(), 'svc-checkpoint-'));
  directories.push(path);
  return path;
}
afterEach(() => {
  for (const path of directories.splice(0)) rmSync(path, { recursive: true, force: true });
});

describe('CheckpointStore', () => {
  it('creates the directory with its identity and a .gitignore, and reads back what it wrote', async () => {
    const dir = join(directory(), 'nested', 'checkpoint');
    const store = await CheckpointStore.open(dir, identity);
    expect(await store.read('case-1')).toBeUndefined();
    await store.write('case-1', { attempts: [{ key: 'k' }] });
    expect(await store.read('case-1')).toEqual({ attempts: [{ key: 'k' }] });
    expect(JSON.parse(readFileSync(join(dir, 'checkpoint.json'), 'utf8'))).toEqual({
      format: 'svc-run.checkpoint',
      version: 1,
      ...identity,
    });
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toContain('*');
    expect(JSON.parse(readFileSync(join(dir, 'lock'), 'utf8'))).toEqual({
      pid: process.pid,
      host: hostname(),
      token: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    await store.close();
    expect(existsSync(join(dir, 'lock'))).toBe(false);
    await expect(store.write('case-1', {})).rejects.toThrow('closed');
    const reopened = await CheckpointStore.open(dir, identity);
    expect(await reopened.read('case-1')).toEqual({ attempts: [{ key: 'k' }] });
    await reopened.close();
  });

  it('refuses a directory dedicated to another run, or that is not a checkpoint, with a TypeError', async () => {
    const dir = directory();
    await (await CheckpointStore.open(dir, identity)).close();
    const other = { ...identity, id: '11111111-2222-4333-8444-555555555555' };
    await expect(CheckpointStore.open(dir, other)).rejects.toThrow(
      new TypeError(
        `checkpointDirectory ${dir} is dedicated to runExperiment of experiment ${identity.id}, not runExperiment of experiment ${other.id}; use one directory per run`,
      ),
    );
    await expect(CheckpointStore.open(dir, { ...identity, runner: 'rescore' })).rejects.toThrow(TypeError);
    expect(existsSync(join(dir, 'lock'))).toBe(false); // released after the refusal
    const foreign = directory();
    writeFileSync(join(foreign, 'checkpoint.json'), '{"format":"something-else"}');
    await expect(CheckpointStore.open(foreign, identity)).rejects.toThrow(
      /not a checkpoint of this runner version/,
    );
  });

  it('refuses a directory another live runner holds, in this process or another', async () => {
    const dir = directory();
    const store = await CheckpointStore.open(dir, identity);
    const error = await CheckpointStore.open(dir, identity).catch((caught: unknown) => caught);
    expect(SvcError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      `The checkpoint directory ${dir} is in use by process ${process.pid}: one runner at a time may use it. Wait for that runner to end.`,
    );
    await store.close();
    writeFileSync(join(dir, 'lock'), JSON.stringify({ pid: process.pid, host: 'elsewhere' }));
    await expect(CheckpointStore.open(dir, identity)).rejects.toThrow(
      /on host elsewhere: .* delete its lock file/,
    );
    writeFileSync(join(dir, 'lock'), 'not json');
    await expect(CheckpointStore.open(dir, identity)).rejects.toThrow(
      `The checkpoint directory ${dir} has a lock file that names no runner: if no runner is running there, delete its lock file.`,
    );
    expect(readFileSync(join(dir, 'lock'), 'utf8')).toBe('not json');
  });

  it('takes over the lock of a runner that ended without releasing it (killed)', async () => {
    const dir = directory();
    const ended = spawnSync(process.execPath, ['-e', '']).pid!;
    writeFileSync(join(dir, 'lock'), JSON.stringify({ pid: ended, host: hostname() }));
    const store = await CheckpointStore.open(dir, identity);
    expect(JSON.parse(readFileSync(join(dir, 'lock'), 'utf8')).pid).toBe(process.pid);
    await store.close();
  });

  it('lets exactly one of several runners take over a lock left by a runner that ended', async () => {
    const ended = spawnSync(process.execPath, ['-e', '']).pid!;
    for (let round = 0; round < 20; round++) {
      const dir = directory();
      await (await CheckpointStore.open(dir, identity)).close();
      writeFileSync(join(dir, 'lock'), JSON.stringify({ pid: ended, host: hostname() }));
      // Each waits for the takeover of another as long as that takes on this machine.
      const opened = await Promise.allSettled(
        Array.from({ length: 6 }, () => CheckpointStore.open(dir, identity, Number.POSITIVE_INFINITY)),
      );
      const winners = opened.filter((o) => o.status === 'fulfilled');
      expect(winners).toHaveLength(1);
      for (const o of opened) {
        if (o.status === 'rejected') expect((o.reason as Error).message).toMatch(/is in use by process/);
      }
      expect(JSON.parse(readFileSync(join(dir, 'lock'), 'utf8')).pid).toBe(process.pid);
      expect(readdirSync(dir).filter((name) => name.startsWith('.lock') || name === 'lock.takeover')).toEqual(
        [],
      );
      await (winners[0] as PromiseFulfilledResult<CheckpointStore>).value.close();
    }
  });

  it('removes a takeover guard left by a runner that ended while taking over, then takes over', async () => {
    const dir = directory();
    const ended = spawnSync(process.execPath, ['-e', '']).pid!;
    await (await CheckpointStore.open(dir, identity)).close();
    writeFileSync(join(dir, 'lock'), JSON.stringify({ pid: ended, host: hostname(), token: 'a' }));
    writeFileSync(join(dir, 'lock.takeover'), JSON.stringify({ pid: ended, host: hostname(), token: 'b' }));
    const store = await CheckpointStore.open(dir, identity);
    expect(JSON.parse(readFileSync(join(dir, 'lock'), 'utf8')).pid).toBe(process.pid);
    expect(existsSync(join(dir, 'lock.takeover'))).toBe(false);
    await store.close();
  });

  it('removes temporary files a crash left, and never reads them', async () => {
    const dir = directory();
    await (await CheckpointStore.open(dir, identity)).close();
    writeFileSync(join(dir, 'records', '.case-1.json.abc123.tmp'), '{"half');
    const store = await CheckpointStore.open(dir, identity);
    expect(readdirSync(join(dir, 'records'))).toEqual([]);
    expect(await store.read('case-1')).toBeUndefined();
    await store.close();
  });

  it('reports a record that is not JSON (changed by something else) without showing its content', async () => {
    const dir = directory();
    const store = await CheckpointStore.open(dir, identity);
    writeFileSync(join(dir, 'records', 'case-2.json'), 'secret-output {');
    const error = await store.read('case-2').catch((caught: unknown) => caught);
    expect(SvcError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /case-2\.json is not valid JSON: something other than the runner changed/,
    );
    expect((error as Error).message).not.toContain('secret-output');
    await expect(store.write('../escape', {})).rejects.toThrow('invalid checkpoint record name');
    await store.close();
  });
});
