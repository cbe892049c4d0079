import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DATABASE_FILE, type RunningServer, startServer } from '@svc-run/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSvc, type SvcClient } from '../client/svc-client.js';
import { SvcExportError } from '../errors/svc-export-error.js';
import type { ExportReport } from './export-report.js';

let server: RunningServer;
const clients: SvcClient[] = [];
beforeAll(async () => {
  server = await startServer({ faultInjection: true });
});
afterEach(async () => {
  server.faults!.clear();
  await Promise.allSettled(clients.splice(0).map((c) => c.shutdownSafe(2_000)));
});
afterAll(async () => {
  await server.close();
});

/** A client; the longest request timeout by default, so a loaded machine only makes a test slower. */
function client(apiKey = server.keys.tracing, timeoutMillis = 60_000): SvcClient {
  const svc = createSvc({
    apiKey,
    baseUrl: server.origin,
    serviceName: 'faults',
    captureContent: true,
    timeoutMillis,
  });
  clients.push(svc);
  return svc;
}

/** Produces `count` spans through the application path and returns what the app's work returned. */
function produce(svc: SvcClient, count: number): number[] {
  return Array.from({ length: count }, (_, i) => svc.withSpan(`work ${i}`, () => i * 2));
}

function settledTotal(report: ExportReport): number {
  return report.acceptedSpans + report.rejectedSpans + report.failedSpans + report.droppedSpans;
}

describe('export under faults', () => {
  it('retries 429 after Retry-After and then stores everything', async () => {
    const svc = client();
    server.faults!.inject('otlp.traces', { kind: 'status', status: 429, retryAfterSeconds: 1 });
    expect(produce(svc, 10)).toEqual(Array.from({ length: 10 }, (_, i) => i * 2));
    const report = await svc.flush();
    expect(report).toMatchObject({ acceptedSpans: 10, failedSpans: 0, pendingSpans: 0 });
    expect(server.faults!.pending('otlp.traces')).toBe(0);
  });

  it('retries a reset connection', async () => {
    const svc = client();
    server.faults!.inject('otlp.traces', { kind: 'reset' });
    produce(svc, 3);
    expect(await svc.flush()).toMatchObject({ acceptedSpans: 3, failedSpans: 0 });
  });

  it('fails after the retry attempts run out on 503, and the flush says so with issues and report', async () => {
    const svc = client();
    server.faults!.inject('otlp.traces', { kind: 'status', status: 503, retryAfterSeconds: 0 }, 5);
    produce(svc, 4);
    const error = await svc.flush().catch((e: unknown) => e);
    expect(SvcExportError.isInstance(error)).toBe(true);
    const { issues, report } = error as SvcExportError;
    expect(issues).toEqual([
      expect.objectContaining({ kind: 'failed', count: 4, status: 503, signal: 'traces' }),
    ]);
    expect(report).toMatchObject({ failedSpans: 4, pendingSpans: 0 });
    expect(settledTotal(report)).toBe(4);
    // A later, non-overlapping flush reports only new failures.
    produce(svc, 2);
    expect(await svc.flush()).toMatchObject({ acceptedSpans: 2, failedSpans: 4 });
  });

  it('fails with a clear issue for a Read key (403) and a key that is not valid (401)', async () => {
    for (const [key, status, hint] of [
      [server.keys.read, 403, 'use a Tracing key, not a Read key'],
      ['svc_tracing_notAValidKeyAtAll000000000000000000000000000', 401, 'use a valid, unrevoked project key'],
    ] as const) {
      const svc = client(key);
      produce(svc, 2);
      const error = (await svc.flush().catch((e: unknown) => e)) as SvcExportError;
      expect(error.issues[0]).toMatchObject({ kind: 'failed', status, count: 2 });
      expect(error.issues[0]?.message).toContain(hint);
      expect(JSON.stringify(error.issues)).not.toContain(key);
      expect(error.message).not.toContain(key);
    }
  });

  it('fails with 401 for a key revoked in the service, after a restart picks up the revocation', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-revoked-'));
    try {
      const first = await startServer({ dataDir });
      const revokedKey = first.keys.tracing;
      await first.close();
      const db = new DatabaseSync(join(dataDir, DATABASE_FILE));
      db.exec("UPDATE api_keys SET revoked_at = '2026-11-21T00:00:00Z' WHERE preset = 'tracing'");
      db.close();
      const second = await startServer({ dataDir });
      try {
        const svc = createSvc({
          apiKey: revokedKey,
          baseUrl: second.origin,
          serviceName: 'revoked',
          captureContent: true,
          timeoutMillis: 60_000,
        });
        clients.push(svc);
        produce(svc, 2);
        const error = (await svc.flush().catch((e: unknown) => e)) as SvcExportError;
        expect(error.issues[0]).toMatchObject({ kind: 'failed', status: 401, count: 2 });
        expect(error.issues[0]?.message).toContain('use a valid, unrevoked project key');
        expect(await svc.checkConnection().catch((e: { status?: number }) => e.status)).toBe(401);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('counts answers slower than the timeout as failed, and the application result is unchanged', async () => {
    const svc = client(server.keys.tracing, 200);
    // Every attempt is held until afterEach releases it: only the 200 ms timeout can end each one.
    server.faults!.inject('otlp.traces', { kind: 'hang' }, 5);
    const results = produce(svc, 3);
    expect(results).toEqual([0, 2, 4]);
    const error = (await svc.flush().catch((e: unknown) => e)) as SvcExportError;
    expect(error.issues[0]?.message).toContain('did not answer within the timeout');
    expect(settledTotal(error.report)).toBe(3);
  }, 30_000);

  it('flushSafe returns within its deadline while the service hangs, and never throws', async () => {
    const svc = client(server.keys.tracing, 60_000);
    // Held until afterEach releases it: the flush cannot end before flushSafe's deadline.
    server.faults!.inject('otlp.traces', { kind: 'hang' });
    produce(svc, 1);
    // The hang outlasts the test's own timeout unless flushSafe honours its deadline.
    const report = await svc.flushSafe(300);
    expect(report.pendingSpans).toBe(1);
    const after = await svc.shutdownSafe(300);
    expect(after.pendingSpans + after.failedSpans).toBe(1);
  }, 10_000);

  it('drops spans past the queue and counts every one: accepted + dropped = produced', async () => {
    const svc = client();
    const produced = 5_000;
    produce(svc, produced);
    const error = (await svc.flush().catch((e: unknown) => e)) as SvcExportError;
    expect(SvcExportError.isInstance(error)).toBe(true);
    const { report } = error;
    expect(report.droppedSpans).toBeGreaterThan(0);
    expect(report.pendingSpans).toBe(0);
    expect(settledTotal(report)).toBe(produced);
    expect(error.issues.filter((i) => i.kind === 'dropped').reduce((n, i) => n + i.count, 0)).toBe(
      report.droppedSpans,
    );
    expect(server.traceStore).toBeDefined();
  });

  it('overlapping flushes share the in-flight work and its result', async () => {
    const svc = client();
    produce(svc, 5);
    const [a, b] = await Promise.all([svc.flush(), svc.flush()]);
    expect(a).toBe(b);
    expect(a.acceptedSpans).toBe(5);
  });
});
