/**
 * The SDK's own requests are never traced (DESIGN: exports are sent "under `suppressTracing` so
 * exports never trace themselves"). The application here is set up as OpenTelemetry's Node
 * documentation shows: its provider (with the service's processor attached, and its own exporter),
 * the `AsyncLocalStorage` context manager registered globally, and the official undici
 * instrumentation (`@opentelemetry/instrumentation-undici`) recording its HTTP requests. Spans of
 * the application's own requests are recorded (the control); no span is made for an OTLP export,
 * nor for the reservation, upload and completion of a file.
 */
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { LoggerProvider } from '@opentelemetry/sdk-logs';
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
// The undici package itself (Bun answers the bare name with a stand-in of its own), as the SDK loads it.
import { request } from 'undici/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAT_PNG } from '../../../../fixtures/messages/media.js';
import { createSvc, type SvcClient } from '../client/svc-client.js';
import { useMediaServer } from '../media/upload/__fixtures__/media-server.js';
import { waitUntil } from '../test-support/wait-until.js';
import { createSvcTransport } from './svc-transport.js';

const media = useMediaServer();
const appExporter = new InMemorySpanExporter();
let tracerProvider: TracerProvider;
let loggerProvider: LoggerProvider;
let instrumentation: UndiciInstrumentation;
let svc: SvcClient;

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const transport = createSvcTransport({
    apiKey: media.server.keys.tracing,
    baseUrl: media.server.origin,
    serviceName: 'instrumented-app',
    captureContent: true,
    timeoutMillis: 60_000,
  });
  tracerProvider = new TracerProvider({
    spanProcessors: [transport.spanProcessor, new SimpleSpanProcessor({ exporter: appExporter })],
  });
  loggerProvider = new LoggerProvider({ processors: [transport.logRecordProcessor] });
  instrumentation = new UndiciInstrumentation();
  instrumentation.setTracerProvider(tracerProvider);
  instrumentation.enable();
  svc = createSvc({ transport, tracerProvider, loggerProvider });
});

afterAll(async () => {
  instrumentation.disable();
  await svc.shutdown();
  await tracerProvider.shutdown();
  await loggerProvider.shutdown();
  context.disable();
});

/** The HTTP client spans the instrumentation recorded, by URL path. */
function httpPaths(spans: readonly ReadableSpan[]): string[] {
  return spans
    .filter((span) => typeof span.attributes['url.full'] === 'string')
    .map((span) => new URL(span.attributes['url.full'] as string).pathname);
}

describe("with undici instrumentation on the application's provider", () => {
  it("records the application's requests and none of the SDK's exports and uploads", async () => {
    const tracer = tracerProvider.getTracer('app');
    const { traceId, flushed } = await tracer.startActiveSpan('handle request', async (span) => {
      // The control: the application's own request, made with undici, is traced.
      const answer = await request(`${media.server.origin}/api/v1/projects/current`, {
        headers: { authorization: `Bearer ${media.server.keys.tracing}` },
      });
      await answer.body.dump();
      await svc.model(
        {
          provider: 'openai',
          model: 'gpt-4o-mini',
          input: [
            {
              role: 'user',
              parts: [{ type: 'blob', modality: 'image', mime_type: 'image/png', content: CAT_PNG.base64 }],
            },
          ],
        },
        () => 'a cat',
      );
      span.end();
      // Flushed inside the application's active span, as a request handler would. Not awaited
      // here: were exports traced, each would make a span to export, and the flush would not end.
      return { traceId: span.spanContext().traceId, flushed: svc.flush() };
    });
    await waitUntil(() => {
      const report = svc.transport.getReport();
      return report.acceptedSpans >= 3 && report.uploadedValues >= 1;
    }, 'the spans accepted and the image uploaded');

    expect(httpPaths(appExporter.getFinishedSpans())).toEqual(['/api/v1/projects/current']);
    expect((await flushed).acceptedSpans).toBe(3);
    // Anything the first flush's requests had recorded would be exported now.
    expect(await svc.flush()).toMatchObject({
      acceptedSpans: 3,
      failedSpans: 0,
      droppedSpans: 0,
      uploadedValues: 1,
      uploadFallbacks: 0,
    });
    expect(httpPaths(appExporter.getFinishedSpans())).toEqual(['/api/v1/projects/current']);
    const stored = media.spans(traceId).map((s) => s.name);
    expect(stored.sort()).toEqual(['GET', 'chat gpt-4o-mini', 'handle request'].sort());
    expect(trace.getActiveSpan()).toBeUndefined();
  });
});
