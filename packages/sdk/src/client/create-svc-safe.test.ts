import { LoggerProvider } from '@opentelemetry/sdk-logs';
import { TracerProvider } from '@opentelemetry/sdk-trace';
import { type RunningServer, startServer } from '@svc-run/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSvcTransport } from '../export/svc-transport.js';
import { useDiagLogger } from '../test-support/diag-logger.js';
import { createSvcSafe } from './create-svc-safe.js';
import { createSvc } from './svc-client.js';

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

describe('failures kept from the application are told on diag', () => {
  const diagnostics = useDiagLogger();
  const options = () => ({
    apiKey: server.keys.tracing,
    baseUrl: server.origin,
    serviceName: 'safe-diag',
    captureContent: true,
    timeoutMillis: 60_000,
  });
  const firstLines = () => diagnostics.map((entry) => [entry.level, entry.text.split('\n')[0]]);

  it("a safe client's misuse: the work runs, nothing is recorded, the reason is on diag", async () => {
    const svc = createSvcSafe(options());
    expect(svc.withSpan('bad options', () => 'ran', { sessionId: '' })).toBe('ran');
    expect(svc.model({ provider: '', model: 'm' }, () => 'ran')).toBe('ran');
    expect(firstLines()).toEqual([
      [
        'warn',
        'svc-run: withSpan recorded no span: its arguments are invalid: TypeError: sessionId must be 1 to 4096 well-formed characters; got a string of 0 characters',
      ],
      [
        'warn',
        'svc-run: model() recorded no span: its options are invalid: TypeError: provider must be a nonblank string; got …',
      ],
    ]);
    await svc.shutdown();
  });

  it('an onExportIssue callback that throws: the issue is kept, the error type is on diag, not its message', async () => {
    const svc = createSvc({
      ...options(),
      apiKey: server.keys.read,
      onExportIssue: () => {
        throw new Error('callback saw jane@example.com');
      },
    });
    svc.withSpan('refused', () => undefined);
    await expect(svc.flush()).rejects.toThrow('export failed');
    expect(svc.transport.getIssues()).toEqual([expect.objectContaining({ kind: 'failed', status: 403 })]);
    expect(firstLines()).toEqual([
      ['warn', 'svc-run: the onExportIssue callback threw; the issue is kept in getIssues(): Error'],
    ]);
    expect(diagnostics.map((entry) => entry.text).join('\n')).not.toContain('jane');
    await svc.shutdownSafe();
  });

  it('a safe flush whose application provider fails: the report comes back, the cause is on diag', async () => {
    const transport = createSvcTransport(options());
    const tracerProvider = new TracerProvider({ spanProcessors: [transport.spanProcessor] });
    const loggerProvider = new LoggerProvider({ processors: [transport.logRecordProcessor] });
    tracerProvider.forceFlush = async () => {
      throw new RangeError('the application exporter gave up');
    };
    const svc = createSvc({ transport, tracerProvider, loggerProvider });
    expect(await svc.flushSafe(60_000)).toMatchObject({ pendingSpans: 0 });
    expect(firstLines()).toEqual([
      ['warn', 'svc-run: a safe flush or shutdown failed: RangeError: the application exporter gave up'],
    ]);
    await svc.shutdownSafe();
  });
});
