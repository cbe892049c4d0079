/**
 * `pnpm demo`: starts the reference server on `.svc-data/demo` (kept after the run), runs the
 * quickstart program against it with a tracing key (and a Read key to read its files back), then
 * prints a one-time login link to the trace in the viewer, on the span whose message holds the
 * photo, and keeps the server running until Ctrl-C so the link opens. A failed run stops the
 * server and exits with the program's exit code.
 */
import { runDemo, traceWithImage } from '../support/run-demo.mjs';

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
  viewer: traceWithImage,
});
