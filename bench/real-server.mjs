/**
 * The reference server of the benchmarks (ingest, SDK overhead, media upload, evaluation runner),
 * run as a child process: `startServer()` of `@svc-run/server` (the built package) on a fresh
 * temporary data directory.
 *
 * IPC with the parent:
 * - sends `{ type: 'ready', origin, key, readKey }` once listening (tracing and Read keys);
 * - on `{ type: 'keys' }` answers `{ type: 'keys', readWriteKey, mcpKey }` (the MCP Read key);
 * - on `{ type: 'stats' }` answers `{ type: 'stats', spans, traces, dbBytes, walBytes }`, read from
 *   the database file through a second, read-only connection;
 * - on `{ type: 'cpu' }` answers `{ type: 'cpu', usage }` with its `process.cpuUsage()`;
 * - on `{ type: 'close' }` closes the server (removing its data directory) and exits.
 * @module
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DATABASE_FILE, startServer } from '@svc-run/server';

const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
const server = await startServer({ dataDir });
const databasePath = join(dataDir, DATABASE_FILE);

function sizeOf(path) {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function stats() {
  const db = new DatabaseSync(databasePath, { readOnly: true });
  try {
    const count = (sql) => Number(Object.values(db.prepare(sql).get())[0]);
    return {
      type: 'stats',
      spans: count('SELECT COUNT(*) FROM spans'),
      traces: count('SELECT COUNT(*) FROM traces'),
      dbBytes: sizeOf(databasePath),
      walBytes: sizeOf(`${databasePath}-wal`),
    };
  } finally {
    db.close();
  }
}

let closing;
async function close() {
  closing ??= server.close().finally(() => rmSync(dataDir, { recursive: true, force: true }));
  await closing;
  if (process.connected) process.disconnect();
}

process.on('message', (message) => {
  if (message?.type === 'cpu') process.send({ type: 'cpu', usage: process.cpuUsage() });
  if (message?.type === 'stats') process.send(stats());
  if (message?.type === 'keys')
    process.send({ type: 'keys', readWriteKey: server.keys.readWrite, mcpKey: server.keys.mcp });
  if (message?.type === 'close') void close();
});
process.on('disconnect', () => void close());
process.send({ type: 'ready', origin: server.origin, key: server.keys.tracing, readKey: server.keys.read });
