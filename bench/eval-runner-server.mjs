/**
 * The reference server of the runner benchmark, run as a child process: `startServer()` of
 * `@svc-run/server` (the built package) on a fresh temporary data directory.
 *
 * IPC with the parent:
 * - sends `{ type: 'ready', origin, key }` once listening (`key`: a tracing key);
 * - on `{ type: 'keys' }` answers `{ type: 'keys', readWriteKey }`;
 * - on `{ type: 'cpu' }` answers `{ type: 'cpu', usage }` with its `process.cpuUsage()`;
 * - on `{ type: 'close' }` closes the server (removing its data directory) and exits.
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '@svc-run/server';

const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-runner-'));
const server = await startServer({ dataDir });

let closing;
async function close() {
  closing ??= server.close().finally(() => rmSync(dataDir, { recursive: true, force: true }));
  await closing;
  if (process.connected) process.disconnect();
}

process.on('message', (message) => {
  if (message?.type === 'cpu') process.send({ type: 'cpu', usage: process.cpuUsage() });
  if (message?.type === 'keys') process.send({ type: 'keys', readWriteKey: server.keys.readWrite });
  if (message?.type === 'close') void close();
});
process.on('disconnect', () => void close());
process.send({ type: 'ready', origin: server.origin, key: server.keys.tracing });
