/**
 * A reference server in a child process, for tests that measure the server's own memory. Run from
 * source by `spawnServerChild` (`server-child-process.ts`). Prints one JSON line
 * `{ origin, keys, dataDir }` once listening; then answers each `rss` line on stdin with
 * `{ maxRss }` (peak resident set size so far, in bytes) and stops on `close`.
 * Not part of the package's public API.
 * @module
 */
import { createInterface } from 'node:readline';
import { startServer } from '../start-server.js';

const server = await startServer({ dataDir: process.argv[2]! });
process.stdout.write(
  `${JSON.stringify({ origin: server.origin, keys: server.keys, dataDir: server.dataDir })}\n`,
);
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'rss') {
    process.stdout.write(`${JSON.stringify({ maxRss: process.resourceUsage().maxRSS * 1024 })}\n`);
  } else if (line === 'close') {
    await server.close();
    process.exit(0);
  }
}
