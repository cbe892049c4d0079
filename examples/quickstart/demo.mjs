/**
 * `pnpm demo`: starts the reference server on `.svc-data/demo` (kept after the run), runs the
 * quickstart program against it with a tracing key (and a Read key to read its files back), stops the server and exits with the
 * program's exit code.
 */
import { runDemo } from '../support/run-demo.mjs';

await runDemo({
  name: 'quickstart',
  dataDirectory: 'demo',
  keyDescription: 'a tracing key',
  loadServer: () => import('@svc-run/server'),
  env: (server) => ({
    SVC_BASE_URL: server.origin,
    SVC_API_KEY: server.keys.tracing,
    SVC_READ_KEY: server.keys.read,
  }),
});
