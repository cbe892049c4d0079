// The reference server for the SDK's tests under Bun, run on Node (the project's Node 24): the
// server's store needs `node:sqlite` and Node worker threads, which the spec keeps on Node.
//
// Started by `reference-server.mjs` with the `startServer()` options as JSON in argv[2]. Prints one
// JSON line on stdout when listening: what a `RunningServer` shows as data, plus `control`, the
// origin of a second HTTP server on 127.0.0.1 that runs the test-only calls the tests make on
// `server.faults` and `server.traceStore` (`POST /call`, `POST /close`). Exits when its stdin ends,
// so it never outlives the test process that started it.
import { createServer } from 'node:http';
import { startServer } from '../../packages/server/dist/index.js';

const options = JSON.parse(process.argv[2] ?? '{}');
const server = await startServer(options);

/** What the tests may call, by target and method; anything else is refused. */
const CALLS = {
  faults: new Set(['inject', 'clear', 'pending', 'take', 'release', 'seen', 'held']),
  traceStore: new Set(['listSpans', 'listLogs', 'getTraceSummary', 'findSpanIds', 'ingest']),
};

async function call({ target, method, args }) {
  const object = server[target];
  if (!CALLS[target]?.has(method) || object === undefined) {
    throw new TypeError(`server.${target}.${method} is not available`);
  }
  if (target === 'traceStore' && method === 'ingest') {
    const [signal, encoding, body] = args;
    return object.ingest(signal, encoding, Buffer.from(body, 'base64'));
  }
  const value = await object[method](...args);
  return value instanceof Set ? { $set: [...value] } : value;
}

function readBody(request) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

let closing;
function close() {
  closing ??= server.close().finally(() => process.exit(0));
  return closing;
}

const control = createServer(async (request, response) => {
  let answer;
  try {
    if (request.url === '/close') {
      await server.close();
      answer = {};
    } else {
      answer = { value: await call(JSON.parse(await readBody(request))) };
    }
  } catch (error) {
    answer = { error: { name: error?.name ?? 'Error', message: String(error?.message ?? error) } };
  }
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify(answer));
  if (request.url === '/close') {
    control.close();
    void close();
  }
});
await new Promise((resolve) => control.listen(0, '127.0.0.1', resolve));

process.stdin.on('end', () => void close());
process.stdin.resume();
process.on('SIGTERM', () => void close());

const { origin, project, keys, dataDir, faults } = server;
const controlOrigin = `http://127.0.0.1:${control.address().port}`;
process.stdout.write(
  `${JSON.stringify({ origin, project, keys, dataDir, faultInjection: faults !== undefined, control: controlOrigin })}\n`,
);
