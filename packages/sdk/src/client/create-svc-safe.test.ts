import { type RunningServer, startServer } from '@svc-run/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSvcSafe } from './create-svc-safe.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ faultInjection: true });
});
afterAll(async () => {
  await server.close();
});

describe('createSvcSafe', () => {
  it('with enabled: false needs no key, records nothing and still runs the work once', async () => {
    const svc = createSvcSafe({ enabled: false });
    expect(svc.enabled).toBe(false);
    const work = vi.fn(async () => 'result');
    expect(await svc.withSpan('x', work)).toBe('result');
    expect(await svc.tool('t', {}, work)).toBe('result');
    expect(work).toHaveBeenCalledTimes(2);
    expect(await svc.flush()).toMatchObject({ acceptedSpans: 0, pendingSpans: 0 });
    expect(await svc.checkConnection()).toBeUndefined();
    expect(await svc.verifyTrace('ab'.repeat(16))).toEqual({ verified: false, receipt: null });
  });

  it('with invalid options is disabled, warns once without the key, and never throws', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      const svc = createSvcSafe({ apiKey: 'svc_tracing_secret', serviceName: '', captureContent: true });
      expect(svc.enabled).toBe(false);
      expect(svc.withSpan('x', () => 42)).toBe(42);
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('serviceName');
    expect(warnings[0]).not.toContain('svc_tracing_secret');
  });

  it('never changes the application result or error, even when exports fail', async () => {
    const svc = createSvcSafe({
      apiKey: server.keys.read,
      baseUrl: server.origin,
      serviceName: 'safe',
      captureContent: true,
      timeoutMillis: 60_000,
    });
    expect(svc.enabled).toBe(true);
    const error = new Error('business failure');
    await expect(svc.withSpan('fails', async () => Promise.reject(error))).rejects.toBe(error);
    expect(svc.withSpan('bad options', () => 'ran', { sessionId: '' })).toBe('ran');
    const modelWork = vi.fn(() => {
      throw new TypeError('application bug');
    });
    expect(() => svc.model({ provider: 'openai', model: 'm' }, modelWork)).toThrow('application bug');
    expect(() => svc.model({ provider: '', model: 'm' }, modelWork)).toThrow('application bug');
    expect(modelWork).toHaveBeenCalledTimes(2);
    const report = await svc.flush();
    expect(report.failedSpans).toBe(2);
    expect(svc.transport.getIssues()[0]).toMatchObject({ kind: 'failed', status: 403 });
    expect(await svc.shutdown()).toMatchObject({ pendingSpans: 0 });
  });
});
