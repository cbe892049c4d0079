/**
 * The SDK overhead benchmark, run by `pnpm bench` through `run.mjs` after the ingest benchmark.
 *
 * Measures the CPU time per span of `withSpan` (5 attributes, ~2 KiB of JSON input and output,
 * content capture on) exported to the reference server by `@svc-run/sdk`, against plain
 * OpenTelemetry (`TracerProvider` + `BatchSpanProcessor` + the official OTLP/HTTP exporter)
 * making the same spans and sending them to the same server, in the same run. Each side runs in
 * its own child process (`sdk-overhead-client.mjs`), so its CPU time (user + system, all of its
 * threads) is its own; the server (`real-server.mjs`) runs in another. It only reports: missing
 * the target never fails the run (exit 0); undelivered spans or a failed child do (exit 1).
 *
 * Environment: BENCH_SDK_SPANS (timed spans per side and round, default 20480), BENCH_SDK_WARMUP
 * (default 2048), BENCH_SDK_CHUNK (spans between flushes, default 1024), BENCH_SDK_ROUNDS
 * (default 3; each runs both sides, in alternating order, against a fresh server; medians are
 * reported), BENCH_SEED (default 42), BENCH_CPU_PROF (a directory: the clients run with --cpu-prof
 * and write `overhead-<side>-<round>.cpuprofile` there).
 * @module
 */
import { mkdirSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { ask, Children, envInt, fmt, fmtInt, nextMessage, pad, padLeft, runBench } from './bench-support.mjs';

const TARGET_RATIO = 1.2;
const WATCHDOG_MS = 5 * 60 * 1000;
const SIDES = ['sdk', 'plain'];

const SPANS = envInt('BENCH_SDK_SPANS', 20_480, 2);
const WARMUP = envInt('BENCH_SDK_WARMUP', 2_048, 0);
const CHUNK = envInt('BENCH_SDK_CHUNK', 1_024, 1);
const ROUNDS = envInt('BENCH_SDK_ROUNDS', 3, 1);
const SEED = envInt('BENCH_SEED', 42, 0);
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined;

const here = import.meta.dirname;
const children = new Children();
/** Forks a script of this folder and waits for its `ready` message; `profile` writes a CPU profile. */
const startChild = (script, name, profile = false) =>
  children.start(join(here, script), name, { cpuProfDir: profile ? CPU_PROF_DIR : undefined });
const stopChild = (started) => children.stop(started);

// --- child processes ---------------------------------------------------------------------------

/** Runs one side in a fresh client child against `server`; returns its result and the checks. */
async function runSide(server, side, round) {
  const statsBefore = await ask(server, 'stats');
  const serverCpuBefore = (await ask(server, 'cpu')).usage;
  const client = await startChild('sdk-overhead-client.mjs', `overhead-${side}-${round}`, true);
  const answer = nextMessage(client.child, ['result', 'error'], 120_000);
  client.child.send({
    type: 'run',
    side,
    origin: server.origin,
    key: server.key,
    spans: SPANS,
    warmup: WARMUP,
    chunk: CHUNK,
    seed: SEED,
  });
  const result = await answer;
  await client.exited;
  if (result.type === 'error') throw new Error(`${client.name} failed: ${result.message}`);
  const serverCpuAfter = (await ask(server, 'cpu')).usage;
  const statsAfter = await ask(server, 'stats');
  const stored = statsAfter.spans - statsBefore.spans;
  const receipt = await checkReceipt(server, result.check);
  return {
    ...result,
    round,
    cpuPerSpan: (result.userMicros + result.systemMicros) / SPANS,
    serverCpuPerSpan:
      (serverCpuAfter.user - serverCpuBefore.user + serverCpuAfter.system - serverCpuBefore.system) /
      result.produced,
    stored,
    receipt,
    delivered: stored === result.produced && result.outcome.accepted === result.produced && receipt.ok,
  };
}

/** The receipt of the checked span's trace: stored, with its input, output and model fields. */
async function checkReceipt(server, { traceId, spanId }) {
  const response = await fetch(`${server.origin}/api/v1/traces/${traceId}/receipt?expectedSpanId=${spanId}`, {
    headers: { authorization: `Bearer ${server.key}` },
  });
  const receipt = await response.json();
  const ok =
    response.status === 200 &&
    receipt.spanCount === 1 &&
    receipt.matchedSpanIds?.length === 1 &&
    receipt.fields?.input === true &&
    receipt.fields?.output === true &&
    receipt.fields?.model === true;
  return { ok, status: response.status, traceId, spanId, receipt };
}

// --- report ------------------------------------------------------------------------------------

function medianBy(results, key) {
  const sorted = [...results].sort((a, b) => a[key] - b[key]);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

function row(side, r) {
  return [
    pad(side, 6),
    padLeft(fmt(r.cpuPerSpan), 11),
    padLeft(fmt(r.userMicros / SPANS), 8),
    padLeft(fmt(r.systemMicros / SPANS), 8),
    padLeft(r.threads ? fmt(r.threads.main / SPANS) : '-', 8),
    padLeft(r.threads ? fmt(r.threads.others / SPANS) : '-', 8),
    padLeft(fmt(r.wallMillis / 1000, 2), 7),
    padLeft(fmtInt(SPANS / (r.wallMillis / 1000)), 8),
    padLeft(fmt(r.serverCpuPerSpan), 11),
    padLeft(fmtInt(r.outcome.accepted), 9),
    padLeft(fmtInt(r.outcome.dropped), 8),
    padLeft(fmtInt(r.outcome.failed), 7),
  ].join('  ');
}

// --- main --------------------------------------------------------------------------------------

async function main() {
  if (CPU_PROF_DIR) mkdirSync(CPU_PROF_DIR, { recursive: true });
  console.log('');
  console.log('SDK overhead benchmark (CPU time per span, @svc-run/sdk against plain OpenTelemetry)');
  console.log(
    '  sdk:   createSvc() + withSpan() with 5 attributes, setInput/setOutput of chat JSON, capture on',
  );
  console.log('  plain: TracerProvider + BatchSpanProcessor + OTLPTraceExporter (official, OTLP/HTTP JSON);');
  console.log(
    '         startActiveSpan() with the same 5 attributes, input.value/output.value (+ mime types) = JSON.stringify of the same objects',
  );
  console.log(
    `  ${fmtInt(WARMUP)} warm-up + ${fmtInt(SPANS)} timed spans per side and round, a flush every ${fmtInt(CHUNK)} spans ` +
      `(neither queue fills up); ${ROUNDS} rounds, sides alternating, a fresh server each round`,
  );
  console.log(
    `  each side in its own child process, CPU = process.cpuUsage() (user + system, all threads) over the timed ` +
      `spans, produce and export; Node ${process.version}, ${availableParallelism()} CPUs ` +
      `(${cpus()[0]?.model.trim() ?? 'unknown'})`,
  );
  console.log('');

  const results = { sdk: [], plain: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    const server = await startChild('real-server.mjs', `overhead-server-${round}`);
    try {
      // Alternate which side goes first, so drift in the shared machine's speed falls on both.
      const order = round % 2 === 1 ? SIDES : [...SIDES].reverse();
      for (const side of order) results[side].push(await runSide(server, side, round));
    } finally {
      await stopChild(server);
    }
  }

  const sizes = results.sdk[0];
  console.log(
    `  span content: input ${fmtInt(sizes.inputBytes)} B, output ${fmtInt(sizes.outputBytes)} B of JSON on average`,
  );
  console.log('');
  const header = [
    pad('side', 6),
    padLeft('CPU µs/span', 11),
    padLeft('user µs', 8),
    padLeft('sys µs', 8),
    padLeft('main µs', 8),
    padLeft('other µs', 8),
    padLeft('wall s', 7),
    padLeft('spans/s', 8),
    padLeft('srv µs/span', 11),
    padLeft('accepted', 9),
    padLeft('dropped', 8),
    padLeft('failed', 7),
  ].join('  ');
  console.log(header);
  console.log('-'.repeat(header.length));
  const median = {};
  for (const side of SIDES) {
    median[side] = medianBy(results[side], 'cpuPerSpan');
    console.log(row(side, median[side]));
  }
  console.log('');
  for (const line of [
    `(each row: the round of median CPU/span among ${ROUNDS}. CPU µs/span: the client child's user + system CPU`,
    ' over the timed spans, divided by their number; main/other µs: the same split by thread, main thread and the',
    " others (V8's garbage collector and compiler helpers, libuv), from /proc at 10 ms resolution; wall s and spans/s:",
    ' the timed spans, flushes included; srv µs/span: CPU of the server child per span received (informational; the',
    ' side that goes first in a round also warms up a fresh server); accepted/dropped/failed: the whole child, warm-up',
    ' included)',
  ]) {
    console.log(line);
  }
  for (const side of SIDES) {
    console.log(
      `${pad(side, 6)} rounds: ${results[side].map((r) => fmt(r.cpuPerSpan)).join(', ')} CPU µs/span; ` +
        `server ${results[side].map((r) => fmt(r.serverCpuPerSpan)).join(', ')} µs/span`,
    );
  }
  const perRound = results.sdk.map((r, i) => r.cpuPerSpan / results.plain[i].cpuPerSpan);
  console.log(`sdk/plain per round: ${perRound.map((r) => fmt(r, 2)).join(', ')}`);
  console.log('');

  const ratio = median.sdk.cpuPerSpan / median.plain.cpuPerSpan;
  const met = ratio <= TARGET_RATIO;
  console.log(
    `sdk/plain CPU per span = ${fmt(ratio, 2)}  (target ≤ ${TARGET_RATIO}: ${met ? 'met' : 'MISSED'})` +
      `  [sdk ${fmt(median.sdk.cpuPerSpan)} µs, plain ${fmt(median.plain.cpuPerSpan)} µs]`,
  );
  console.log(met ? 'target: met' : 'target: MISSED (see above; the bench reports, it does not fail)');
  console.log('');

  let correct = true;
  for (const side of SIDES) {
    for (const r of results[side]) {
      correct &&= r.delivered;
      const o = r.outcome;
      console.log(
        `check ${pad(`${side} #${r.round}`, 9)} stored ${fmtInt(r.stored)} / produced ${fmtInt(r.produced)} spans, ` +
          `client: accepted ${fmtInt(o.accepted)}, dropped ${fmtInt(o.dropped)}, failed ${fmtInt(o.failed)}; ` +
          `receipt of ${r.receipt.traceId}: HTTP ${r.receipt.status}, spanCount ${r.receipt.receipt.spanCount}, ` +
          `input/output/model ${r.receipt.receipt.fields?.input}/${r.receipt.receipt.fields?.output}/${r.receipt.receipt.fields?.model} ` +
          `(${r.delivered ? 'ok' : 'WRONG'})`,
      );
    }
  }
  if (!correct) {
    console.log('correctness: FAILED (a side did not deliver every span; the comparison is not valid)');
    process.exitCode = 1;
  }
  if (CPU_PROF_DIR) console.log(`\nCPU profiles of the client children written to ${CPU_PROF_DIR}`);
}

await runBench('sdk-overhead', main, children, WATCHDOG_MS);
