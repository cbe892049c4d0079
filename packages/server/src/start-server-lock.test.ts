/**
 * One server per data directory: a second start on a data directory in use is refused and changes
 * nothing; a start that fails leaves no project or keys behind; a server killed with SIGKILL does
 * not keep its data directory locked.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LINK_SECRET_FILE } from './media/link-secret.js';
import { CREDENTIALS_FILE } from './project/bootstrap-project.js';
import { DATABASE_FILE, type RunningServer, startServer } from './start-server.js';
import { DataDirectoryLockedError } from './store/data-dir-lock.js';
import { jsonSpan, newSpanId, newTraceId, tracesRequest } from './test-support/otlp-fixtures.js';
import { spawnServerChild } from './test-support/server-child-process.js';

const open: RunningServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-lock-start-'));
  dirs.push(dir);
  return dir;
}

async function start(options: Parameters<typeof startServer>[0]): Promise<RunningServer> {
  const server = await startServer(options);
  open.push(server);
  return server;
}

/**
 * Every file under `dir` with its size, modification time and SHA-256; with `exceptStore`, the
 * store's files (`svc.sqlite` and its WAL) by name only: a running server's own threads write them
 * at any time (checkpoints).
 */
function snapshot(dir: string, { exceptStore = false } = {}): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const name = relative(dir, path);
    if (exceptStore && name.startsWith(DATABASE_FILE)) {
      files[name] = 'store';
      continue;
    }
    if (!entry.isFile()) {
      files[name] = 'directory';
      continue;
    }
    const { size, mtimeMs } = statSync(path);
    files[name] = `${size} ${mtimeMs} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
  }
  return files;
}

async function ingestOne(origin: string, key: string): Promise<{ traceId: string; spanId: string }> {
  const traceId = newTraceId();
  const spanId = newSpanId();
  const res = await fetch(`${origin}/api/v1/otlp/v1/traces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(tracesRequest([jsonSpan(traceId, { spanId })])),
  });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  return { traceId, spanId };
}

describe('one server per data directory', () => {
  it('refuses a second start on a data directory in use, saying which server holds it, and changes nothing', async () => {
    const dataDir = tempDir();
    const first = await start({ dataDir });
    await ingestOne(first.origin, first.keys.tracing);
    const before = snapshot(dataDir, { exceptStore: true });

    const second = startServer({ dataDir });
    await expect(second).rejects.toBeInstanceOf(DataDirectoryLockedError);
    await expect(second).rejects.toThrow(
      `The data directory ${dataDir} is in use by another svc server (process ${process.pid}, listening on ${first.origin}, since `,
    );
    expect(snapshot(dataDir, { exceptStore: true })).toEqual(before);

    // The first goes on serving; once it is closed, the directory starts again with its project.
    expect(
      (
        await fetch(`${first.origin}/api/v1/projects/current`, {
          headers: { authorization: `Bearer ${first.keys.read}` },
        })
      ).status,
    ).toBe(200);
    await first.close();
    const third = await start({ dataDir });
    expect(third.keys).toEqual(first.keys);
  });

  it('is refused while another process serves the directory, and starts at once after that process was killed (SIGKILL)', {
    timeout: 60_000,
  }, async () => {
    const dataDir = tempDir();
    const child = await spawnServerChild(dataDir);
    let killed = false;
    try {
      const { traceId, spanId } = await ingestOne(child.origin, child.keys.tracing);
      await expect(startServer({ dataDir })).rejects.toThrow(
        `is in use by another svc server (process ${child.pid}, listening on ${child.origin}, since `,
      );
      await child.kill();
      killed = true;

      const restarted = await start({ dataDir });
      expect(restarted.keys).toEqual(child.keys);
      const receipt = await fetch(
        `${restarted.origin}/api/v1/traces/${traceId}/receipt?expectedSpanId=${spanId}`,
        { headers: { authorization: `Bearer ${restarted.keys.tracing}` } },
      );
      expect(await receipt.json()).toMatchObject({ spanCount: 1, missingSpanIds: [] });
    } finally {
      if (!killed) await child.close();
    }
  });

  describe('a start that fails', () => {
    let blocker: Server;
    let port: number;

    afterEach(() => new Promise<void>((resolve) => (blocker ? blocker.close(() => resolve()) : resolve())));

    async function takePort(): Promise<number> {
      blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
      port = (blocker.address() as { port: number }).port;
      return port;
    }

    it('because the port is taken makes no project or keys, on a new or an empty data directory', async () => {
      await takePort();
      const empty = tempDir();
      const fresh = join(tempDir(), 'not-yet');
      for (const dataDir of [empty, fresh]) {
        await expect(startServer({ dataDir, port })).rejects.toThrow(/EADDRINUSE/);
        const left = readdirSync(dataDir);
        expect(left).not.toContain(DATABASE_FILE);
        expect(left).not.toContain(CREDENTIALS_FILE);
        expect(left).not.toContain(LINK_SECRET_FILE);
        expect(left.filter((name) => !name.startsWith('svc.lock'))).toEqual([]);
      }
      // The directory then starts as a new one would.
      const server = await start({ dataDir: empty });
      expect(server.project.slug).toBe('local');
    });

    it('because the port is taken leaves a data directory in use before as it was', async () => {
      const dataDir = tempDir();
      const first = await start({ dataDir });
      await first.close();
      const before = snapshot(dataDir);
      await takePort();
      await expect(startServer({ dataDir, port })).rejects.toThrow(/EADDRINUSE/);
      const after = snapshot(dataDir);
      // Only the lock file's own bytes may differ: the store, the keys and the link secret are as they were.
      for (const name of [DATABASE_FILE, CREDENTIALS_FILE, LINK_SECRET_FILE])
        expect(after[name]).toBe(before[name]);
      expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    });

    it('after making its project removes the project and its keys again', async () => {
      const dataDir = tempDir();
      // A link secret that is no key makes the start fail after the project was made.
      writeFileSync(join(dataDir, LINK_SECRET_FILE), 'not a key\n');
      mkdirSync(join(dataDir, 'mine'));
      await expect(startServer({ dataDir })).rejects.toThrow(/does not hold a link-signing key/);
      expect(readdirSync(dataDir).sort()).toEqual([LINK_SECRET_FILE, 'mine', 'svc.lock']);
      expect(readFileSync(join(dataDir, LINK_SECRET_FILE), 'utf8')).toBe('not a key\n');
    });
  });

  it('validates the options of the logs and of the body budget', async () => {
    await expect(startServer({ requestLog: 'yes' as never })).rejects.toThrow(
      'requestLog must be a boolean or a function; got string',
    );
    await expect(startServer({ errorLog: true as never })).rejects.toThrow(
      'errorLog must be a function; got boolean',
    );
    await expect(startServer({ bodyBudgetBytes: 1024 })).rejects.toThrow(
      'bodyBudgetBytes must be an integer of at least 67108864 (the largest request body); got 1024',
    );
  });
});
