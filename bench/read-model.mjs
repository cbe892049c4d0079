/**
 * The read-side benchmark, run by `pnpm bench` through `run.mjs` (issue 14's figures): on the
 * real reference server (in this process; its store works on its own threads), over the read API:
 *
 * - `searchTraces` by session, by model and by error on a store of 1,000,000 spans (100,000
 *   traces of 10 spans), newest first, one page of 20: server milliseconds (median of 7);
 * - `traceOutline` of a 10,000-span trace (`GET /api/v1/traces/{traceId}`, one page holds them
 *   all): milliseconds and bytes;
 * - `spanDetail` of a span with a 50 MB attribute, with and without `includeContent`:
 *   milliseconds and bytes sent.
 *
 * The aim is every server figure under 200 ms. It only reports: missing the aim never fails the
 * run. Filling the store (ingest, then the trace index catching up) is timed and printed too.
 *
 * Environment: BENCH_READ_TRACES (traces in the store, default 100000), BENCH_READ_RUNS (timed
 * runs per figure, default 7).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '@svc-run/server';
import { envInt, fmt, fmtInt, pad, padLeft } from './bench-support.mjs';

const TRACES = envInt('BENCH_READ_TRACES', 100_000, 100);
const RUNS = envInt('BENCH_READ_RUNS', 7, 1);
const SPANS_PER_TRACE = 10;
const TRACES_PER_REQUEST = 500;
const AIM_MS = 200;
const T0 = 1_763_740_800_000_000_000n;

const hex = (bytes) => randomBytes(bytes).toString('hex');
const str = (key, value) => ({ key, value: { stringValue: value } });
const int = (key, value) => ({ key, value: { intValue: String(value) } });
const MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4-5', 'gemini-2.5-pro', 'llama-3.3-70b'];

/** Trace `i`: an agent run of 10 spans; session i % 10,000; 1 % of traces fail. */
function trace(i) {
  const traceId = hex(16);
  const root = hex(8);
  const start = T0 + BigInt(i) * 1_000_000_000n;
  const at = (ms) => String(start + BigInt(ms) * 1_000_000n);
  const spans = [
    {
      traceId,
      spanId: root,
      name: 'invoke_agent support',
      kind: 1,
      startTimeUnixNano: at(0),
      endTimeUnixNano: at(900),
      attributes: [str('gen_ai.conversation.id', `session-${i % 10_000}`), str('user.id', `user-${i % 997}`)],
      ...(i % 100 === 7 ? { status: { code: 2, message: 'failed' } } : {}),
    },
  ];
  for (let s = 1; s < SPANS_PER_TRACE; s++) {
    spans.push({
      traceId,
      spanId: hex(8),
      parentSpanId: root,
      name: s % 3 === 0 ? 'execute_tool search' : `chat ${MODELS[i % MODELS.length]}`,
      kind: 3,
      startTimeUnixNano: at(s * 80),
      endTimeUnixNano: at(s * 80 + 70),
      attributes: [
        str('gen_ai.operation.name', 'chat'),
        str('gen_ai.request.model', MODELS[i % MODELS.length]),
        int('gen_ai.usage.input_tokens', 120 + s),
        int('gen_ai.usage.output_tokens', 40 + s),
        str(
          'gen_ai.output.messages',
          JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: `answer ${i}.${s}` }] }]),
        ),
      ],
    });
  }
  return spans;
}

function request(spans) {
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [str('service.name', 'bench-read')] },
        scopeSpans: [{ scope: { name: 'bench' }, spans }],
      },
    ],
  });
}

async function post(server, body) {
  const res = await fetch(`${server.origin}/api/v1/otlp/v1/traces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.keys.tracing}`, 'content-type': 'application/json' },
    body,
  });
  if (res.status !== 200) throw new Error(`ingest answered ${res.status}`);
  await res.arrayBuffer();
}

/** Median milliseconds and the bytes of `GET path` with the Read key, over RUNS runs (one warm-up). */
async function measure(server, path) {
  const times = [];
  let bytes = 0;
  for (let run = -1; run < RUNS; run++) {
    const started = performance.now();
    const res = await fetch(`${server.origin}${path}`, {
      headers: { authorization: `Bearer ${server.keys.read}` },
    });
    const body = await res.arrayBuffer();
    const millis = performance.now() - started;
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    bytes = body.byteLength;
    if (run >= 0) times.push(millis);
  }
  times.sort((a, b) => a - b);
  return { millis: times[Math.floor(times.length / 2)], bytes };
}

function line(label, { millis, bytes }) {
  const mark = millis <= AIM_MS ? 'within' : 'OVER';
  console.log(
    `  ${pad(label, 46)} ${padLeft(fmt(millis), 8)} ms ${padLeft(fmtInt(bytes), 12)} bytes  (${mark} ${AIM_MS} ms)`,
  );
}

const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-read-'));
const server = await startServer({ dataDir });
try {
  console.log(
    `\nRead side: a store of ${fmtInt(TRACES * SPANS_PER_TRACE)} spans (${fmtInt(TRACES)} traces of ${SPANS_PER_TRACE})`,
  );
  let started = performance.now();
  const inFlight = new Set();
  for (let first = 0; first < TRACES; first += TRACES_PER_REQUEST) {
    const spans = [];
    for (let i = first; i < Math.min(TRACES, first + TRACES_PER_REQUEST); i++) spans.push(...trace(i));
    const sent = post(server, request(spans)).finally(() => inFlight.delete(sent));
    inFlight.add(sent);
    if (inFlight.size >= 2) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  const ingestSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  await server.traceStore.catchUpIndex();
  const indexSeconds = (performance.now() - started) / 1000;
  console.log(
    `  stored in ${fmt(ingestSeconds)} s; the trace index caught up ${fmt(indexSeconds)} s later\n`,
  );

  line(
    'searchTraces by session (1 in 10,000)',
    await measure(server, '/api/v1/traces?sessionId=session-4242'),
  );
  line('searchTraces by model (1 in 5)', await measure(server, '/api/v1/traces?model=claude-sonnet-4-5'));
  line('searchTraces by error (1 in 100)', await measure(server, '/api/v1/traces?hasError=true'));
  line('searchTraces, no filter', await measure(server, '/api/v1/traces'));

  // One trace of 10,000 spans.
  const bigTrace = hex(16);
  const root = hex(8);
  for (let first = 0; first < 10_000; first += 2_000) {
    const spans = [];
    for (let s = first; s < first + 2_000; s++) {
      spans.push({
        traceId: bigTrace,
        spanId: s === 0 ? root : hex(8),
        ...(s === 0 ? {} : { parentSpanId: root }),
        name: s === 0 ? 'batch job' : `chat ${MODELS[s % MODELS.length]}`,
        kind: 1,
        startTimeUnixNano: String(T0 + BigInt(s) * 1_000_000n),
        endTimeUnixNano: String(T0 + BigInt(s) * 1_000_000n + 900_000n),
        attributes: [
          str('gen_ai.request.model', MODELS[s % MODELS.length]),
          int('gen_ai.usage.input_tokens', 100),
        ],
      });
    }
    await post(server, request(spans));
  }
  line('traceOutline, 10,000 spans', await measure(server, `/api/v1/traces/${bigTrace}`));

  // One span with a 50 MB attribute.
  const largeTrace = hex(16);
  const largeSpan = hex(8);
  await post(
    server,
    request([
      {
        traceId: largeTrace,
        spanId: largeSpan,
        name: 'chat gpt-4o',
        kind: 3,
        startTimeUnixNano: String(T0),
        endTimeUnixNano: String(T0 + 1_000_000_000n),
        attributes: [str('input.value', 'x'.repeat(50 * 1024 * 1024)), str('gen_ai.request.model', 'gpt-4o')],
      },
    ]),
  );
  line(
    'spanDetail, a 50 MB attribute, with content',
    await measure(server, `/api/v1/traces/${largeTrace}/spans/${largeSpan}?includeContent=true`),
  );
  line(
    'spanDetail, a 50 MB attribute, without content',
    await measure(server, `/api/v1/traces/${largeTrace}/spans/${largeSpan}`),
  );
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
