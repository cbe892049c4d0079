/**
 * A reference server in a child process, for tests that measure the server's own memory. Run from
 * source by `spawnServerChild` (`server-child-process.ts`). Prints one JSON line
 * `{ origin, keys, dataDir }` once listening; then answers each `rss` line on stdin with
 * `{ maxRss, rss }` (peak resident set size so far, and now, in bytes), each `bodies` line with
 * `{ bodyBytes }` (bytes of request bodies the process's body budget has charged now), each `gc`
 * line with `{}` after a full garbage collection, and stops on
 * `close`. A second argument, JSON, adds `startServer` options.
 * Not part of the package's public API.
 * @module
 */
import { createInterface } from 'node:readline';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { processBodyBudget } from '../http/body-budget.js';
import { type StartServerOptions, startServer } from '../start-server.js';

// A full collection on request: an idle server may never collect, so freed bodies would stay
// resident however long a test waits.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const extra = JSON.parse(process.argv[3] ?? '{}') as StartServerOptions;
const server = await startServer({ ...extra, dataDir: process.argv[2]! });
process.stdout.write(
  `${JSON.stringify({ origin: server.origin, keys: server.keys, dataDir: server.dataDir })}\n`,
);
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'rss') {
    const maxRss = process.resourceUsage().maxRSS * 1024;
    process.stdout.write(`${JSON.stringify({ maxRss, rss: process.memoryUsage.rss() })}\n`);
  } else if (line === 'gc') {
    collectGarbage();
    process.stdout.write('{}\n');
  } else if (line === 'bodies') {
    process.stdout.write(`${JSON.stringify({ bodyBytes: processBodyBudget().used })}\n`);
  } else if (line === 'close') {
    await server.close();
    process.exit(0);
  }
}
