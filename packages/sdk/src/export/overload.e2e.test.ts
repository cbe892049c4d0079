/**
 * Overload: 100,000 spans produced as fast as the application can, against the real reference
 * server. Memory stays bounded (the queue holds at most 2,048 spans) and every span ends in
 * exactly one counter, with the drops reported in `dropped` issues that add up.
 *
 * The server runs in a child process, so the memory measured here is the SDK's (and the test
 * runner's, which is constant), not the server's.
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSvc, type SvcClient } from '../client/svc-client.js';
import { SvcExportError } from '../errors/svc-export-error.js';
import type { ExportIssue } from '../options/svc-options.js';
import { QUEUE_CAPACITY } from './signal-pipeline.js';

const SPANS = 100_000;
/** Spans produced synchronously before yielding to the event loop once. */
const BURST = 5_000;
const SAMPLE_EVERY = 10_000;
const MIB = 1024 * 1024;

/**
 * The bound on the growth of the live heap: `heapUsed` right after a full collection, at every
 * sample during production (each taken with the queue full) and after the flush, minus before.
 *
 * What the SDK may legitimately hold: at most 2,048 spans queued or in flight, each a
 * `ReadableSpan` with ~1 KiB of input JSON, a small output, five small attributes and the span's
 * own objects (ids, times; resource and scope shared), so ≤ ~4 KiB each, ≤ ~8 MiB in all; plus
 * one batch in flight: the content policy's copies of 512 spans (shallow: the strings are shared),
 * the OTLP JSON tree and its serialized body (~1 MiB), a few MiB together. 32 MiB leaves room
 * for compiled code and connection buffers. Retaining the produced spans instead would cost at
 * least their inputs, 100,000 × 1 KiB ≈ 98 MiB, and any leak above ~300 bytes per span exceeds
 * the bound.
 */
const MAX_LIVE_HEAP_GROWTH_MIB = 32;
/**
 * A sanity bound on RSS growth (before → sampled peak, and → after the flush). RSS is not a
 * measure of what the SDK holds: V8 sizes its heap to the allocation rate (100,000 spans of
 * garbage churned within seconds) and keeps the pages after collecting, which grows RSS by
 * ~150 MiB here whatever the SDK retains. 256 MiB is that with margin; the live heap bound above
 * is the precise one.
 */
const MAX_RSS_GROWTH_MIB = 256;

/**
 * A full garbage collection: `global.gc` when Node runs with `--expose-gc`, else the same
 * function made available at run time (the test runner's workers do not pass the flag).
 */
function collector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed !== undefined) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** ~1 KiB of JSON, different for every span. */
function inputOf(i: number): { question: string; context: string[] } {
  return {
    question: `question ${i}: what does the overload test measure?`,
    context: Array.from({ length: 8 }, (_, k) => `passage ${k} of span ${i} `.padEnd(110, '.')),
  };
}

/**
 * Starts the reference server in a child process (Node, `startServer()` of `@svc-run/server`,
 * resolved from this package). It answers `count` with the number of spans stored, and closes
 * when the IPC channel does (so it never outlives this process).
 */
const SERVER_CHILD = `
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DATABASE_FILE, startServer } from '@svc-run/server';
const server = await startServer();
process.on('message', (message) => {
  if (message?.type !== 'count') return;
  const db = new DatabaseSync(join(server.dataDir, DATABASE_FILE), { readOnly: true });
  try {
    process.send({ type: 'count', spans: Number(db.prepare('SELECT COUNT(*) AS n FROM spans').get().n) });
  } finally {
    db.close();
  }
});
process.on('disconnect', () => void server.close().finally(() => process.exit(0)));
process.send({ type: 'ready', origin: server.origin, key: server.keys.tracing });
`;

interface ServerChild {
  child: ChildProcess;
  origin: string;
  key: string;
}

function nextMessage<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type?: string }) => {
      if (message?.type !== type) return;
      child.off('exit', onExit);
      child.off('message', onMessage);
      resolve(message as T);
    };
    const onExit = (code: number | null) => {
      child.off('message', onMessage);
      reject(new Error(`server child exited (${code}) before '${type}'`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

async function startServerChild(): Promise<ServerChild> {
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', '--input-type=module', '-e', SERVER_CHILD],
    // The package directory: '@svc-run/server' resolves from its node_modules.
    { cwd: new URL('../..', import.meta.url), stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const ready = await nextMessage<{ origin: string; key: string }>(child, 'ready');
  return { child, origin: ready.origin, key: ready.key };
}

async function storedSpans(server: ServerChild): Promise<number> {
  const answer = nextMessage<{ spans: number }>(server.child, 'count');
  server.child.send({ type: 'count' });
  return (await answer).spans;
}

interface Memory {
  rss: number;
  heapUsed: number;
  /** `heapUsed` right after a full collection: what is still referenced. */
  liveHeap: number;
}

/** RSS and heapUsed as they are, then the live heap after a full collection. */
function memory(gc: () => void): Memory {
  const { rss, heapUsed } = process.memoryUsage();
  gc();
  return { rss, heapUsed, liveHeap: process.memoryUsage().heapUsed };
}

const mib = (bytes: number) => (bytes / MIB).toFixed(1);

let server: ServerChild;
let svc: SvcClient | undefined;
beforeAll(async () => {
  server = await startServerChild();
}, 30_000);
afterAll(async () => {
  await svc?.shutdownSafe(2_000);
  if (server?.child.connected) {
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.disconnect();
    const timer = setTimeout(() => server.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}, 30_000);

describe('overload', () => {
  it('bounds memory and counts every one of 100,000 spans, drops included, exactly', async () => {
    const issues: ExportIssue[] = [];
    svc = createSvc({
      apiKey: server.key,
      baseUrl: server.origin,
      serviceName: 'overload',
      captureContent: true,
      // The longest request timeout: a batch the loaded server stores late must not count as failed.
      timeoutMillis: 60_000,
      onExportIssue: (issue) => issues.push(issue),
    });
    const client = svc;

    const gc = collector();
    gc();
    const before = memory(gc);
    const peak: Memory = { ...before };
    const samples: Memory[] = [];
    let results = 0;
    for (let i = 0; i < SPANS; ) {
      // A burst larger than the queue, produced without yielding: the queue must drop.
      for (const end = i + BURST; i < end; i++) {
        results += client.withSpan(
          'overload',
          (span) => {
            span.setOutput({ ok: true, index: i });
            return 1;
          },
          {
            input: inputOf(i),
            attributes: {
              'gen_ai.operation.name': 'chat',
              'gen_ai.request.model': 'overload-model',
              'overload.index': i,
              'overload.burst': Math.floor(i / BURST),
              'overload.flag': i % 2 === 0,
            },
          },
        );
        // Sampled at a burst's end: the queue is full (2,048 spans queued or in flight).
        if ((i + 1) % SAMPLE_EVERY === 0) {
          const now = memory(gc);
          samples.push(now);
          peak.rss = Math.max(peak.rss, now.rss);
          peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
          peak.liveHeap = Math.max(peak.liveHeap, now.liveHeap);
        }
      }
      // Lets exports make progress between bursts, as an application's awaits would.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(results).toBe(SPANS);

    const error = await client.flush().catch((e: unknown) => e);
    const after = memory(gc);
    const report = client.transport.getReport();

    const growth = (key: keyof Memory) =>
      `before ${mib(before[key])}, peak ${mib(peak[key])} (+${mib(peak[key] - before[key])}), ` +
      `after flush ${mib(after[key])} (+${mib(after[key] - before[key])})`;
    console.log(
      `overload: ${SPANS} spans; accepted ${report.acceptedSpans}, dropped ${report.droppedSpans}, ` +
        `rejected ${report.rejectedSpans}, failed ${report.failedSpans}, pending ${report.pendingSpans}\n` +
        `  rss MiB: ${growth('rss')}\n` +
        `  heapUsed MiB: ${growth('heapUsed')}\n` +
        `  live heap MiB (after a full GC): ${growth('liveHeap')}\n` +
        `  samples every ${SAMPLE_EVERY} spans (rss / heapUsed / live heap, MiB): ` +
        samples.map((s) => `${mib(s.rss)}/${mib(s.heapUsed)}/${mib(s.liveHeap)}`).join('  '),
    );

    // Every span ends in exactly one counter, and nothing is left pending after the flush.
    expect(report.pendingSpans).toBe(0);
    expect(report.acceptedSpans + report.rejectedSpans + report.failedSpans + report.droppedSpans).toBe(
      SPANS,
    );
    // Each burst exceeds the queue, so each drops at least BURST - QUEUE_CAPACITY spans.
    expect(report.droppedSpans).toBeGreaterThanOrEqual((SPANS / BURST) * (BURST - QUEUE_CAPACITY));
    expect(report.acceptedSpans).toBeGreaterThan(0);

    // The flush fails with the drops, and its dropped issues add up to the report's count.
    expect(SvcExportError.isInstance(error)).toBe(true);
    const exportError = error as SvcExportError;
    expect(exportError.report).toEqual(report);
    const droppedIn = (list: readonly ExportIssue[]) =>
      list.filter((i) => i.kind === 'dropped').reduce((n, i) => n + i.count, 0);
    expect(droppedIn(exportError.issues)).toBe(report.droppedSpans);
    expect(exportError.issues.every((i) => i.signal === 'traces')).toBe(true);
    // So do the issues delivered to onExportIssue (the whole history, not only the kept ones).
    expect(droppedIn(issues)).toBe(report.droppedSpans);

    // What the SDK counts as accepted is what the server stored: the counts are exact.
    expect(await storedSpans(server)).toBe(report.acceptedSpans);

    // Memory stays bounded (see MAX_LIVE_HEAP_GROWTH_MIB and MAX_RSS_GROWTH_MIB).
    for (const point of [peak, after]) {
      expect((point.liveHeap - before.liveHeap) / MIB).toBeLessThan(MAX_LIVE_HEAP_GROWTH_MIB);
      expect((point.rss - before.rss) / MIB).toBeLessThan(MAX_RSS_GROWTH_MIB);
    }
  }, 60_000);
});
