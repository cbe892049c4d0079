import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CREDENTIALS_FILE } from './project/bootstrap-project.js';
import { type RunningServer, startServer } from './start-server.js';
import { jsonSpan, newSpanId, newTraceId, tracesRequest } from './test-support/otlp-fixtures.js';

const open: RunningServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(options: Parameters<typeof startServer>[0] = {}): Promise<RunningServer> {
  const server = await startServer(options);
  open.push(server);
  return server;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-'));
  dirs.push(dir);
  return dir;
}

async function ingest(server: RunningServer, body: unknown): Promise<Response> {
  return fetch(`${server.origin}/api/v1/otlp/v1/traces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.keys.tracing}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function receipt(server: RunningServer, traceId: string, spanIds: string[]) {
  const query = spanIds.map((id) => `expectedSpanId=${id}`).join('&');
  const res = await fetch(`${server.origin}/api/v1/traces/${traceId}/receipt?${query}`, {
    headers: { authorization: `Bearer ${server.keys.tracing}` },
  });
  return { status: res.status, body: (await res.json()) as { spanCount: number; missingSpanIds: string[] } };
}

function portIsClosed(origin: string): Promise<boolean> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

describe('startServer', () => {
  it('listens on 127.0.0.1 and an ephemeral port by default, with six distinct keys (five presets and the MCP Read key)', async () => {
    const server = await start();
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new Set(Object.values(server.keys)).size).toBe(6);
    expect(server.keys.mcp.startsWith('svc_read_')).toBe(true);
    expect(server.keys.setup.startsWith('svc_setup_')).toBe(true);
    expect(server.keys.machine.startsWith('svc_machine_')).toBe(true);
    const res = await fetch(`${server.origin}/api/v1/projects/current`, {
      headers: { authorization: `Bearer ${server.keys.tracing}` },
    });
    expect(await res.json()).toEqual(server.project);
  });

  it('keeps the project, keys and every acknowledged span across a restart on the same data directory', async () => {
    const dataDir = tempDir();
    const first = await start({ dataDir });
    const traceId = newTraceId();
    const spanIds = [newSpanId(), newSpanId(), newSpanId()];
    const res = await ingest(first, tracesRequest(spanIds.map((spanId) => jsonSpan(traceId, { spanId }))));
    expect(res.status).toBe(200);
    const { project, keys } = first;
    await first.close();
    expect(await portIsClosed(first.origin)).toBe(true);

    const second = await start({ dataDir });
    expect(second.project).toEqual(project);
    expect(second.keys).toEqual(keys);
    const after = await receipt(second, traceId, spanIds);
    expect(after.status).toBe(200);
    expect(after.body.spanCount).toBe(3);
    expect(after.body.missingSpanIds).toEqual([]);
  });

  it('issues the machine credential to a data directory made before it existed, and keeps it after', async () => {
    const dataDir = tempDir();
    const first = await start({ dataDir });
    await first.close();
    // A data directory of an earlier release: no machine key in credentials.json nor in the database.
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(join(dataDir, 'svc.sqlite'));
    db.prepare("DELETE FROM api_keys WHERE preset = 'machine'").run();
    db.close();
    const { machine: _machine, ...earlier } = first.keys;
    writeFileSync(
      join(dataDir, CREDENTIALS_FILE),
      JSON.stringify({ projectId: first.project.id, keys: earlier }),
    );
    const second = await start({ dataDir });
    expect(second.keys).toMatchObject(earlier);
    expect(second.keys.machine).toMatch(/^svc_machine_/);
    expect(second.keys.machine).not.toBe(first.keys.machine);
    const claim = (server: RunningServer, key: string) =>
      fetch(`${server.origin}/api/v1/evals/executions/00000000-0000-4000-8000-000000000000/claim`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': 'k',
        },
        body: '{}',
      });
    expect((await claim(second, second.keys.machine)).status).toBe(404); // authenticated: no such execution
    expect((await claim(second, first.keys.machine)).status).toBe(401);
    await second.close();
    const third = await start({ dataDir });
    expect(third.keys).toEqual(second.keys);
    expect((await claim(third, third.keys.machine)).status).toBe(404);
  });

  it('stores keys hashed: the database file never holds a key; the database and credentials files are private', async () => {
    const dataDir = tempDir();
    const server = await start({ dataDir });
    await server.close();
    const { readFileSync } = await import('node:fs');
    const database = readFileSync(join(dataDir, 'svc.sqlite'));
    const wal = existsSync(join(dataDir, 'svc.sqlite-wal'))
      ? readFileSync(join(dataDir, 'svc.sqlite-wal'))
      : Buffer.alloc(0);
    for (const key of Object.values(server.keys)) {
      expect(database.includes(key)).toBe(false);
      expect(wal.includes(key)).toBe(false);
    }
    expect(statSync(join(dataDir, CREDENTIALS_FILE)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'svc.sqlite')).mode & 0o777).toBe(0o600);
  });

  it('removes its temporary data directory on close', async () => {
    const server = await start();
    expect(existsSync(server.dataDir)).toBe(true);
    await server.close();
    expect(existsSync(server.dataDir)).toBe(false);
  });

  it('refuses to start on a data directory whose credentials file is gone, with a fix in the message', async () => {
    const dataDir = tempDir();
    const server = await start({ dataDir });
    await server.close();
    writeFileSync(join(dataDir, CREDENTIALS_FILE), '{}');
    await expect(startServer({ dataDir })).rejects.toThrow(/does not belong to the stored project/);
    rmSync(join(dataDir, CREDENTIALS_FILE));
    await expect(startServer({ dataDir })).rejects.toThrow(
      /restore the file, or start on an empty data directory/,
    );
  });

  it('validates its options', async () => {
    await expect(startServer({ port: 70000 })).rejects.toThrow(
      'port must be an integer from 0 to 65535; got 70000',
    );
    await expect(startServer({ host: ' ' })).rejects.toThrow('host must be a nonblank string');
    await expect(startServer({ uploadLinkTtlMillis: -1 })).rejects.toThrow(
      'uploadLinkTtlMillis must be an integer from 0 to 604800000; got -1',
    );
    await expect(startServer({ downloadLinkTtlMillis: 1.5 })).rejects.toThrow(
      'downloadLinkTtlMillis must be an integer from 0 to 604800000; got 1.5',
    );
  });

  it('rejects when the port is taken', async () => {
    const server = await start();
    const port = Number(new URL(server.origin).port);
    await expect(startServer({ port })).rejects.toThrow(/EADDRINUSE/);
  });

  it('close() ends open keep-alive connections and can be called twice', async () => {
    const server = await start();
    await fetch(`${server.origin}/api/v1/projects/current`, {
      headers: { authorization: `Bearer ${server.keys.read}` },
    });
    await Promise.all([server.close(), server.close()]);
    expect(await portIsClosed(server.origin)).toBe(true);
  });
});
