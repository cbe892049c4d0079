/**
 * The OTLP trace ingest benchmark, run by `pnpm bench` through `run.mjs`.
 *
 * Posts the same batches of realistic GenAI spans, as OTLP JSON and as OTLP protobuf, over
 * loopback to (1) a baseline server that only reads and decodes the bodies and (2) the real
 * server (`startServer()` of `@svc-run/server`), which stores them in SQLite. Each server runs in
 * its own child process; the client runs here. Prints spans/s and MB/s of each, the ratio
 * stored/baseline per encoding, and whether the targets are met. It only reports: missing a
 * target never fails the run (exit 0); failed requests or a wrong stored count do (exit 1).
 *
 * Environment: BENCH_BATCHES (timed batches per scenario, default 128), BENCH_WARMUP (default 8),
 * BENCH_CONCURRENCY (requests in flight, default 4), BENCH_PASSES (rounds per encoding, each a
 * baseline pass and a stored pass into a fresh database; medians are reported; default 3), BENCH_SEED (default 42), BENCH_CPU_PROF (a directory: the server children run with
 * --cpu-prof and write their profiles there).
 * @module
 */
import { mkdirSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { Pool } from 'undici';
import { ask, Children, envInt, fmt, fmtInt, pad, padLeft, runBench } from './bench-support.mjs';
import { jsonBody, protobufBody, SPANS_PER_TRACE, SpanFactory, TARGET_ATTRIBUTE_BYTES } from './spans.mjs';

const BATCH_SPANS = 512;
const TARGET_RATIO = 0.5;
const TARGET_STORED_SPANS_PER_SECOND = 20_000;
const OTLP_PATH = '/api/v1/otlp/v1/traces';
const WATCHDOG_MS = 10 * 60 * 1000;

const BATCHES = envInt('BENCH_BATCHES', 128, 1);
const WARMUP = envInt('BENCH_WARMUP', 8, 0);
const CONCURRENCY = envInt('BENCH_CONCURRENCY', 4, 1);
const SEED = envInt('BENCH_SEED', 42, 0);
const PASSES = envInt('BENCH_PASSES', 3, 1);
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined;

const here = import.meta.dirname;
const children = new Children();
/** Forks a server script of this folder and waits for its `ready` message. */
const startChild = (script, name) => children.start(join(here, script), name, { cpuProfDir: CPU_PROF_DIR });
const stopChild = (started) => children.stop(started);

// --- child processes ---------------------------------------------------------------------------

const ENCODINGS = {
  json: { contentType: 'application/json', serializer: JsonTraceSerializer },
  protobuf: { contentType: 'application/x-protobuf', serializer: ProtobufTraceSerializer },
};

async function post(pool, server, encoding, body) {
  const { contentType, serializer } = ENCODINGS[encoding];
  const started = performance.now();
  const response = await pool.request({
    path: OTLP_PATH,
    method: 'POST',
    headers: { 'content-type': contentType, authorization: `Bearer ${server.key}` },
    body,
  });
  const answer = new Uint8Array(await response.body.arrayBuffer());
  const millis = performance.now() - started;
  if (response.statusCode !== 200) {
    throw new Error(
      `${server.name}: HTTP ${response.statusCode}: ${new TextDecoder().decode(answer).slice(0, 300)}`,
    );
  }
  const partial = serializer.deserializeResponse(answer).partialSuccess;
  if (partial && (Number(partial.rejectedSpans ?? 0) > 0 || partial.errorMessage)) {
    throw new Error(`${server.name}: spans refused: ${JSON.stringify(partial)}`);
  }
  return millis;
}

/** Posts `bodies` with CONCURRENCY requests in flight; returns the latency of each. */
async function postAll(pool, server, encoding, bodies) {
  const latencies = [];
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) latencies.push(await post(pool, server, encoding, bodies[next++]));
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, bodies.length) }, worker));
  return latencies;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

/** One timed pass over `bodies`. */
async function timedPass(pool, server, encoding, bodies) {
  const serverCpuBefore = (await ask(server, 'cpu')).usage;
  const clientCpuBefore = process.cpuUsage();
  const started = performance.now();
  const latencies = await postAll(pool, server, encoding, bodies);
  const seconds = (performance.now() - started) / 1000;
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const serverCpuAfter = (await ask(server, 'cpu')).usage;
  const serverCpuSeconds =
    (serverCpuAfter.user - serverCpuBefore.user + serverCpuAfter.system - serverCpuBefore.system) / 1e6;
  latencies.sort((a, b) => a - b);
  const spans = bodies.length * BATCH_SPANS;
  const bytes = bodies.reduce((n, b) => n + b.length, 0);
  return {
    spans,
    seconds,
    spansPerSecond: spans / seconds,
    megabytesPerSecond: bytes / 1e6 / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    serverCpu: serverCpuSeconds / seconds,
    clientCpu: (clientCpu.user + clientCpu.system) / 1e6 / seconds,
  };
}

/**
 * One scenario: the warm-up batches, then `passes` timed passes over the timed batches; the pass
 * of median rate is reported, with the rates of all passes.
 */
/** The result of median rate among `results`, with the rates of all of them. */
function median(results) {
  const sorted = [...results].sort((a, b) => a.spansPerSecond - b.spansPerSecond);
  return { ...sorted[Math.floor((sorted.length - 1) / 2)], rates: results.map((r) => r.spansPerSecond) };
}

async function measure(server, encoding, warmupBodies, timedBodies, passes) {
  const pool = new Pool(server.origin, { connections: CONCURRENCY, pipelining: 1 });
  try {
    await postAll(pool, server, encoding, warmupBodies);
    const results = [];
    for (let i = 0; i < passes; i++) results.push(await timedPass(pool, server, encoding, timedBodies));
    return median(results);
  } finally {
    await pool.close();
  }
}

// --- correctness -------------------------------------------------------------------------------

/** Fetches the receipt of `trace` from the stored server and checks its span count and span IDs. */
async function checkReceipt(server, trace) {
  const query = trace.spanIds.map((id) => `expectedSpanId=${id}`).join('&');
  const response = await fetch(`${server.origin}/api/v1/traces/${trace.traceId}/receipt?${query}`, {
    headers: { authorization: `Bearer ${server.key}` },
  });
  const receipt = await response.json();
  const ok =
    response.status === 200 &&
    receipt.spanCount === SPANS_PER_TRACE &&
    receipt.matchedSpanIds.length === SPANS_PER_TRACE &&
    receipt.missingSpanIds.length === 0;
  return { ok, status: response.status, receipt };
}

// --- report ------------------------------------------------------------------------------------

function row(encoding, server, r) {
  return [
    pad(encoding, 9),
    pad(server, 9),
    padLeft(fmtInt(r.spansPerSecond), 9),
    padLeft(fmt(r.megabytesPerSecond), 7),
    padLeft(fmt(r.seconds, 2), 7),
    padLeft(fmt(r.p50), 7),
    padLeft(fmt(r.p99), 7),
    padLeft(`${Math.round(r.serverCpu * 100)} %`, 8),
    padLeft(`${Math.round(r.clientCpu * 100)} %`, 8),
  ].join('  ');
}

// --- main --------------------------------------------------------------------------------------

async function main() {
  if (CPU_PROF_DIR) mkdirSync(CPU_PROF_DIR, { recursive: true });

  // Bodies, built once before timing. The same spans serialized both ways, so JSON and protobuf
  // carry the same content; each encoding gets a fresh stored server (an empty database).
  const buildStarted = performance.now();
  const factory = new SpanFactory(SEED);
  const bodies = { json: [], protobuf: [] };
  let checkTrace;
  for (let i = 0; i < WARMUP + BATCHES; i++) {
    const spans = factory.batch(BATCH_SPANS);
    bodies.json.push(jsonBody(spans));
    bodies.protobuf.push(protobufBody(spans));
    if (i === WARMUP + Math.floor(BATCHES / 2)) {
      const traceId = spans[0].spanContext().traceId;
      checkTrace = {
        traceId,
        spanIds: spans.filter((s) => s.spanContext().traceId === traceId).map((s) => s.spanContext().spanId),
      };
    }
  }
  const buildSeconds = (performance.now() - buildStarted) / 1000;
  const perSpan = (list) => list.reduce((n, b) => n + b.length, 0) / list.length / BATCH_SPANS;

  console.log('OTLP trace ingest benchmark (POST /api/v1/otlp/v1/traces, loopback)');
  console.log(
    `  ${BATCH_SPANS}-span batches of GenAI agent traces (${SPANS_PER_TRACE} spans/trace), ` +
      `${fmtInt(factory.attributeBytesTotal / factory.spanTotal)} B of attributes/span on average ` +
      `(target ~${TARGET_ATTRIBUTE_BYTES})`,
  );
  console.log(
    `  body size/span: JSON ${fmtInt(perSpan(bodies.json))} B, protobuf ${fmtInt(perSpan(bodies.protobuf))} B; ` +
      `bodies built in ${fmt(buildSeconds)} s`,
  );
  console.log(
    `  ${WARMUP} warm-up + ${BATCHES} timed batches (${fmtInt(BATCHES * BATCH_SPANS)} spans) per scenario, ` +
      `${CONCURRENCY} requests in flight, Node ${process.version}, ` +
      `${availableParallelism()} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'})`,
  );
  console.log('  servers run in child processes; the client (undici Pool, keep-alive) runs in the parent');
  console.log('');

  // Rounds interleave the two servers, so drift in the machine's speed (it is shared) falls on
  // both: each round is one baseline pass and one stored pass into a fresh, empty database.
  const results = {};
  const checks = [];
  const baseline = await startChild('baseline-server.mjs', 'baseline');
  try {
    for (const encoding of ['json', 'protobuf']) {
      const warmupBodies = bodies[encoding].slice(0, WARMUP);
      const timedBodies = bodies[encoding].slice(WARMUP);
      const rounds = { base: [], stored: [] };
      for (let round = 0; round < PASSES; round++) {
        rounds.base.push(await measure(baseline, encoding, warmupBodies, timedBodies, 1));
        const real = await startChild('real-server.mjs', `stored-${encoding}-${round + 1}`);
        try {
          rounds.stored.push(await measure(real, encoding, warmupBodies, timedBodies, 1));
          const stats = await ask(real, 'stats');
          const expectedSpans = (WARMUP + BATCHES) * BATCH_SPANS;
          const receipt = await checkReceipt(real, checkTrace);
          checks.push({ encoding: `${encoding} #${round + 1}`, stats, expectedSpans, receipt });
        } finally {
          await stopChild(real);
        }
      }
      results[encoding] = { base: median(rounds.base), stored: median(rounds.stored) };
    }
  } finally {
    await stopChild(baseline);
  }

  const header = [
    pad('encoding', 9),
    pad('server', 9),
    padLeft('spans/s', 9),
    padLeft('MB/s', 7),
    padLeft('time s', 7),
    padLeft('p50 ms', 7),
    padLeft('p99 ms', 7),
    padLeft('srv CPU', 8),
    padLeft('cli CPU', 8),
  ].join('  ');
  console.log(header);
  console.log('-'.repeat(header.length));
  for (const [encoding, { base, stored }] of Object.entries(results)) {
    console.log(row(encoding, 'baseline', base));
    console.log(row(encoding, 'stored', stored));
  }
  console.log('');
  console.log(
    `(each figure: the median of ${PASSES} rounds; a round is one baseline pass, then one stored pass into a fresh, empty database.`,
  );
  console.log(' MB/s: request bodies; p50/p99: request latency; srv/cli CPU: CPU time / wall time of the');
  console.log(' server child / the client, 100 % = one core)');
  for (const [encoding, { base, stored }] of Object.entries(results)) {
    console.log(
      `${encoding} rounds: baseline ${base.rates.map((r) => fmtInt(r)).join(', ')} spans/s; stored ${stored.rates.map((r) => fmtInt(r)).join(', ')} spans/s`,
    );
  }
  console.log('');

  let allMet = true;
  for (const [encoding, { base, stored }] of Object.entries(results)) {
    const ratio = stored.spansPerSecond / base.spansPerSecond;
    const ratioMet = ratio >= TARGET_RATIO;
    const rateMet = stored.spansPerSecond >= TARGET_STORED_SPANS_PER_SECOND;
    allMet &&= ratioMet && rateMet;
    console.log(
      `${pad(encoding, 9)} stored/baseline = ${fmt(ratio, 2)}  (target ≥ ${TARGET_RATIO}: ${ratioMet ? 'met' : 'MISSED'});  ` +
        `stored ${fmtInt(stored.spansPerSecond)} spans/s  (target ≥ ${fmtInt(TARGET_STORED_SPANS_PER_SECOND)}: ${rateMet ? 'met' : 'MISSED'})`,
    );
  }
  console.log(
    allMet ? 'targets: all met' : 'targets: MISSED (see above; the bench reports, it does not fail)',
  );
  console.log('');

  let correct = true;
  for (const { encoding, stats, expectedSpans, receipt } of checks) {
    const countOk = stats.spans === expectedSpans;
    correct &&= countOk && receipt.ok;
    console.log(
      `check ${pad(encoding, 9)} stored spans ${fmtInt(stats.spans)} / posted ${fmtInt(expectedSpans)} ` +
        `(${countOk ? 'ok' : 'MISMATCH'}), traces ${fmtInt(stats.traces)}, ` +
        `database ${fmt(stats.dbBytes / 1e6)} MB + WAL ${fmt(stats.walBytes / 1e6)} MB`,
    );
    console.log(
      `      receipt of trace ${checkTrace.traceId}: HTTP ${receipt.status}, spanCount ${receipt.receipt.spanCount} ` +
        `(expected ${SPANS_PER_TRACE}), matched ${receipt.receipt.matchedSpanIds?.length ?? 0}/${SPANS_PER_TRACE} ` +
        `span IDs (${receipt.ok ? 'ok' : 'WRONG'})`,
    );
  }
  if (!correct) {
    console.log('correctness: FAILED');
    process.exitCode = 1;
  }
  if (CPU_PROF_DIR) console.log(`\nCPU profiles of the server children written to ${CPU_PROF_DIR}`);
}

await runBench('ingest', main, children, WATCHDOG_MS);
