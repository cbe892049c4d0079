/**
 * The baseline of the ingest benchmark, run as a child process: the same HTTP stack as the real
 * server (Hono on `@hono/node-server`) answering `POST /api/v1/otlp/v1/traces` the way the real
 * route does up to the decode step — content type, bearer header, the body read from the request
 * stream, `JSON.parse` or protobuf `decode` + `toObject` with the server's own message types and
 * options — and then `{}` (or an empty protobuf response), storing nothing.
 *
 * Tells its parent `{ type: 'ready', origin, key }` over IPC, answers `{ type: 'cpu' }` with its
 * `process.cpuUsage()`, and exits on `{ type: 'close' }` or when the parent goes away.
 * @module
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
// The server's own protobuf definition and toObject options (not exported by the package; Node 24
// runs the erasable-TypeScript source directly), so the baseline decodes exactly as the server.
import { OTLP_TO_OBJECT, otlpProto } from '../packages/server/src/otlp/otlp-proto.ts';

const PATH = '/api/v1/otlp/v1/traces';
const KEY = 'svc_tracing_baseline';
const EMPTY_PROTOBUF_RESPONSE = otlpProto.ExportTraceServiceResponse.encode(
  otlpProto.ExportTraceServiceResponse.create({}),
).finish();

/** Reads the body from the request stream, as the server's `readExportBody` does. */
async function readBody(request) {
  if (request.body === null) return Buffer.alloc(0);
  const chunks = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

const app = new Hono();
app.post(PATH, async (c) => {
  if (c.req.header('authorization') !== `Bearer ${KEY}`) return c.json({ error: 'unauthorized' }, 401);
  const mediaType = (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
  const bytes = await readBody(c.req.raw);
  let request;
  if (mediaType === 'application/json') {
    request = JSON.parse(bytes.toString('utf8'));
  } else if (mediaType === 'application/x-protobuf') {
    const type = otlpProto.ExportTraceServiceRequest;
    request = type.toObject(type.decode(bytes), OTLP_TO_OBJECT);
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
