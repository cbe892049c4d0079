/**
 * The baseline of the ingest benchmark, run as a child process: the same HTTP stack as the real
 * server (Hono on `@hono/node-server`) answering `POST /api/v1/otlp/v1/traces` the way the real
 * route does up to the decode step — content type, bearer header, the body read with the server's
 * own reader (`readRequestBody`), `JSON.parse`, or protobuf `decode` with the server's own message
 * types and its conversion to the OTLP JSON shape (`tracesFromProto`) — and then `{}` (or an
 * empty protobuf response), storing nothing.
 *
 * Tells its parent `{ type: 'ready', origin, key }` over IPC, answers `{ type: 'cpu' }` with its
 * `process.cpuUsage()`, and exits on `{ type: 'close' }` or when the parent goes away.
 * @module
 */
import '../scripts/ts-source-hooks.mjs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

// The server's own body reader, protobuf definition and protobuf-to-JSON conversion (not exported
// by the package; Node 24 runs the erasable-TypeScript sources, their relative imports resolved by
// the hook imported above, hence imported once it is registered), so the baseline reads and
// decodes exactly as the server does.
const { readRequestBody } = await import('../packages/server/src/http/read-request-body.ts');
const { otlpProto } = await import('../packages/server/src/otlp/otlp-proto.ts');
const { tracesFromProto } = await import('../packages/server/src/otlp/proto-to-json.ts');

const PATH = '/api/v1/otlp/v1/traces';
const KEY = 'svc_tracing_baseline';
const EMPTY_PROTOBUF_RESPONSE = otlpProto.ExportTraceServiceResponse.encode(
  otlpProto.ExportTraceServiceResponse.create({}),
).finish();

const app = new Hono();
app.post(PATH, async (c) => {
  if (c.req.header('authorization') !== `Bearer ${KEY}`) return c.json({ error: 'unauthorized' }, 401);
  const mediaType = (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
  const bytes = await readRequestBody(c.req.raw, c.env.incoming, 64 * 1024 * 1024);
  let request;
  if (mediaType === 'application/json') {
    request = JSON.parse(bytes.toString('utf8'));
  } else if (mediaType === 'application/x-protobuf') {
    const type = otlpProto.ExportTraceServiceRequest;
    request = tracesFromProto(type.decode(bytes));
  } else {
    return c.json({ error: 'unsupported media type' }, 415);
  }
  if (!Array.isArray(request.resourceSpans)) return c.json({ error: 'not an export request' }, 400);
  if (mediaType === 'application/json') {
    return new Response(JSON.stringify({}), { status: 200, headers: { 'content-type': 'application/json' } });
  }
  return new Response(EMPTY_PROTOBUF_RESPONSE, {
    status: 200,
    headers: { 'content-type': 'application/x-protobuf' },
  });
});

const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
server.once('listening', () => {
  const { port } = server.address();
  process.send({ type: 'ready', origin: `http://127.0.0.1:${port}`, key: KEY });
});

function close() {
  server.close(() => {
    if (process.connected) process.disconnect();
  });
  server.closeAllConnections();
}
process.on('message', (message) => {
  if (message?.type === 'cpu') process.send({ type: 'cpu', usage: process.cpuUsage() });
  if (message?.type === 'close') close();
});
process.on('disconnect', () => {
  server.close();
  server.closeAllConnections();
});
