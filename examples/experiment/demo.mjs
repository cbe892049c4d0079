/**
 * `pnpm --filter @svc-run/example-experiment demo`: starts the reference server on
 * `.svc-data/experiment-demo` (kept after the run), runs the experiment program against it with a
 * Read-and-write key, stops the server and exits with the program's exit code.
 */
import { runDemo } from '../support/run-demo.mjs';

await runDemo({
  name: 'experiment',
  dataDirectory: 'experiment-demo',
  keyDescription: 'a Read-and-write key',
  loadServer: () => import('@svc-run/server'),
  // The names of the env file `svc serve` writes.
  env: (server) => ({ SVC_BASE_URL: server.origin, SVC_RW_KEY: server.keys.readWrite }),
  inRepoRoot: true, // the checkpoints go to .svc-checkpoints/ there (ignored by git)
  success: 'done',
});
