// `@svc-run/server` as the SDK's tests see it under Bun (`vitest.config.mjs` aliases the package
// here). Everything is the real package except `startServer()`, which starts the real server in a
// Node child process (`server-host.mjs`) and returns a `RunningServer` for it:
//
// - `origin`, `project`, `keys`, `dataDir`: the child's.
// - `faults` and `traceStore`: their methods run in the child. They stay synchronous, as in
//   process, through a worker thread and `Atomics.wait` (`sync-call-worker.mjs`).
// - `app`: `request()` and `fetch()` go to `origin` over HTTP (there is no in-process handler).
// - `close()`: closes the server and waits for the child to exit.

import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';

export * from '../../packages/server/dist/index.js';

/** Node for the server: the runner passes its own (Node 24); else the `node` on PATH. */
const NODE = process.env.SVC_REFERENCE_SERVER_NODE || 'node';
const HOST = fileURLToPath(new URL('./server-host.mjs', import.meta.url));
const CALL_TIMEOUT_MILLIS = 60_000;

/** One thread per test file, made on first use, for the synchronous calls. */
let channel;
function syncChannel() {
  if (channel === undefined) {
    const shared = new Int32Array(new SharedArrayBuffer(4));
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(new URL('./sync-call-worker.mjs', import.meta.url), {
      workerData: { shared, port: port2 },
      transferList: [port2],
    });
    worker.unref();
    port1.unref();
    channel = { shared, port: port1, worker };
  }
  return channel;
}

function unwrap(answer) {
  if (answer.error) {
    const ErrorClass = answer.error.name === 'TypeError' ? TypeError : Error;
    const error = new ErrorClass(`${answer.error.message} (in the reference server host)`);
    if (ErrorClass === Error) error.name = answer.error.name;
    throw error;
  }
  const value = answer.value;
  return value !== null && typeof value === 'object' && Array.isArray(value.$set)
    ? new Set(value.$set)
    : value;
}

/** POSTs `payload` to `url` and blocks until the answer is back. */
function callSync(url, payload) {
  const { shared, port, worker } = syncChannel();
  Atomics.store(shared, 0, 0);
  worker.postMessage({ url, body: JSON.stringify(payload) });
  if (Atomics.wait(shared, 0, 0, CALL_TIMEOUT_MILLIS) === 'timed-out') {
    throw new Error(`the reference server host did not answer ${payload.target}.${payload.method} in time`);
  }
  return unwrap(receiveMessageOnPort(port).message);
}

async function callAsync(url, payload) {
  const response = await fetch(url, { method: 'POST', body: JSON.stringify(payload) });
  return unwrap(await response.json());
}

/** Resolves with the host's ready line; rejects when it exits first. */
function readyLine(child) {
  return new Promise((resolve, reject) => {
    let buffered = '';
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text) => {
      stderr += text;
      process.stderr.write(text);
    });
    child.stdout.setEncoding('utf8');
    const onData = (text) => {
      buffered += text;
      const end = buffered.indexOf('\n');
      if (end === -1) return;
      child.stdout.off('data', onData);
      child.off('exit', onExit);
      try {
        resolve(JSON.parse(buffered.slice(0, end)));
      } catch (error) {
        reject(error);
      }
    };
    const onExit = (code, signal) =>
      reject(
        new Error(`the reference server host exited (${code ?? signal}) before listening: ${stderr.trim()}`),
      );
    child.stdout.on('data', onData);
    child.once('exit', onExit);
    child.once('error', reject);
  });
}

/** `startServer()` of `@svc-run/server`, with the server in a Node child process. */
export async function startServer(options = {}) {
  const child = spawn(NODE, ['--disable-warning=ExperimentalWarning', HOST, JSON.stringify(options)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const ready = await readyLine(child);
  const exited = new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const callUrl = `${ready.control}/call`;
  const remote =
    (target, method) =>
    (...args) =>
      callSync(callUrl, { target, method, args });
  const faults = ready.faultInjection
    ? {
        inject: remote('faults', 'inject'),
        clear: remote('faults', 'clear'),
        pending: remote('faults', 'pending'),
        take: remote('faults', 'take'),
        release: remote('faults', 'release'),
        seen: remote('faults', 'seen'),
        held: remote('faults', 'held'),
      }
    : undefined;
  const traceStore = {
    getTraceSummary: remote('traceStore', 'getTraceSummary'),
    findSpanIds: remote('traceStore', 'findSpanIds'),
    listSpans: remote('traceStore', 'listSpans'),
    listLogs: remote('traceStore', 'listLogs'),
    ingest: (signal, encoding, body) =>
      callAsync(callUrl, {
        target: 'traceStore',
        method: 'ingest',
        args: [signal, encoding, Buffer.from(body).toString('base64')],
      }),
    // The server's `close()` closes its store.
    close: async () => {},
  };
  const app = {
    request: (input, init) => fetch(new URL(String(input), ready.origin), init),
    fetch: (request) => {
      const url = new URL(request.url);
      return fetch(new Request(new URL(`${url.pathname}${url.search}`, ready.origin), request));
    },
  };
  let closed;
  return {
    origin: ready.origin,
    project: ready.project,
    keys: ready.keys,
    dataDir: ready.dataDir,
    app,
    traceStore,
    ...(faults ? { faults } : {}),
    close() {
      closed ??= (async () => {
        await fetch(`${ready.control}/close`, { method: 'POST' }).catch(() => {});
        child.stdin.end();
        await exited;
      })();
      return closed;
    },
  };
}
