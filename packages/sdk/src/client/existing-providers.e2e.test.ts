import { LoggerProvider } from '@opentelemetry/sdk-logs';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { type RunningServer, startServer } from '@svc-run/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSvcTransport } from '../export/svc-transport.js';
import { createSvc } from './svc-client.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

function transport() {
  return createSvcTransport({
    apiKey: server.keys.tracing,
    baseUrl: server.origin,
    serviceName: 'owned-providers',
    captureContent: true,
    timeoutMillis: 60_000,
  });
}

describe("createSvc on the application's own providers", () => {
  it("exports through the attached processors beside the application's own, and leaves their lifecycle alone", async () => {
    const svcTransport = transport();
    const appExporter = new InMemorySpanExporter();
    const tracerProvider = new TracerProvider({
      spanProcessors: [svcTransport.spanProcessor, new SimpleSpanProcessor({ exporter: appExporter })],
    });
    const loggerProvider = new LoggerProvider({ processors: [svcTransport.logRecordProcessor] });
    const svc = createSvc({ transport: svcTransport, tracerProvider, loggerProvider });
    expect(svc.transport).toBe(svcTransport);

    const traceId = await svc.withSpan('owned', (span) => {
      svc.recordMessages({ input: [{ role: 'user', content: 'hi' }] });
      return span.traceId;
    });
    const report = await svc.flush();
    expect(report).toMatchObject({ acceptedSpans: 1, acceptedLogs: 1 });
    expect(appExporter.getFinishedSpans().map((s) => s.name)).toEqual(['owned']);
    expect(server.traceStore.listSpans(traceId).map((s) => s.name)).toEqual(['owned']);
    expect(server.traceStore.listLogs(traceId)).toHaveLength(1);

    // shutdown closes the service's transport, not the application's providers.
    await svc.shutdown();
    tracerProvider.getTracer('app').startSpan('after').end();
    expect(appExporter.getFinishedSpans().map((s) => s.name)).toEqual(['owned', 'after']);
    expect(svcTransport.getReport().droppedSpans).toBe(1);
    await tracerProvider.shutdown();
    await loggerProvider.shutdown();
  });

  it('refuses a transport it did not make and providers without forceFlush', () => {
    const svcTransport = transport();
    const loggerProvider = new LoggerProvider();
    const tracerProvider = new TracerProvider();
    expect(() =>
      createSvc({
        transport: { ...svcTransport },
        tracerProvider,
        loggerProvider,
      }),
    ).toThrow('transport must be made by createSvcTransport(options)');
    expect(() =>
      createSvc({
        transport: svcTransport,
        tracerProvider: {
          getTracer: tracerProvider.getTracer.bind(tracerProvider),
        } as unknown as TracerProvider,
        loggerProvider,
      }),
    ).toThrow('tracerProvider must expose forceFlush(): Promise<void>');
  });

  it('validates transport options like the client does', () => {
    expect(() =>
      createSvcTransport({
        apiKey: server.keys.tracing,
        serviceName: 'x',
        captureContent: true,
        timeoutMillis: 50,
      }),
    ).toThrow('timeoutMillis must be an integer from 100 to 60000; got 50');
  });
});
