/**
 * The service's span processor beside another platform's on the application's provider (spec
 * "Automatic capture of files": "when the service processor runs beside the external platform's
 * processor, the service records the span before the platform replaces the file, so data: URLs
 * upload"). The platform is Langfuse's real `LangfuseSpanProcessor` (`@langfuse/otel` 5.11.1),
 * attached after ours and exporting to a local stand-in of its endpoints: when a span ends, it
 * hashes each inline file of the recorded messages, then rewrites `span.attributes` in place,
 * replacing the file with its `@@@langfuseMedia:…@@@` reference, and uploads the bytes to
 * Langfuse. The service must still store the image itself.
 */
import { createHash } from 'node:crypto';
import { OpenTelemetry } from '@ai-sdk/otel';
import { LangfuseSpanProcessor } from '@langfuse/otel';
import { LoggerProvider } from '@opentelemetry/sdk-logs';
import { type SpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { generateText, type Telemetry } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAT_PNG, dataUrl } from '../../../../fixtures/messages/media.js';
import { createSvc } from '../client/svc-client.js';
import { blobsOf, useMediaServer } from '../media/upload/__fixtures__/media-server.js';
import { type LangfuseStandIn, startLangfuseStandIn } from './__fixtures__/langfuse-stand-in.js';
import { createSvcTransport } from './svc-transport.js';

const media = useMediaServer();
let langfuse: LangfuseStandIn;
beforeAll(async () => {
  langfuse = await startLangfuseStandIn();
});
afterAll(async () => {
  await langfuse.close();
});

const catSha = createHash('sha256').update(CAT_PNG.bytes).digest('hex');
const answer = {
  content: [{ type: 'text' as const, text: 'A cat.' }],
  finishReason: { unified: 'stop' as const, raw: 'stop' },
  usage: {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 2, text: 2, reasoning: undefined },
  },
  warnings: [],
};

/** The application's providers: the service's processors first, then Langfuse's. */
function applicationProviders() {
  const transport = createSvcTransport({
    apiKey: media.server.keys.tracing,
    baseUrl: media.server.origin,
    serviceName: 'beside-langfuse',
    captureContent: true,
    timeoutMillis: 60_000,
  });
  const langfuseProcessor = new LangfuseSpanProcessor({
    baseUrl: langfuse.origin,
    publicKey: 'pk-lf-stand-in',
    secretKey: 'sk-lf-stand-in',
    exportMode: 'immediate',
  });
  const tracerProvider = new TracerProvider({
    spanProcessors: [transport.spanProcessor, langfuseProcessor as unknown as SpanProcessor],
  });
  const loggerProvider = new LoggerProvider({ processors: [transport.logRecordProcessor] });
  const svc = createSvc({ transport, tracerProvider, loggerProvider });
  return { svc, tracerProvider, loggerProvider, langfuseProcessor };
}

describe("beside Langfuse's span processor on the application's provider", () => {
  it.each([
    ['base64', CAT_PNG.base64],
    ['a data: URL', dataUrl(CAT_PNG, 'image/png')],
  ])(
    'the image given as %s still uploads to the service after Langfuse replaced it with its reference',
    async (_form, image) => {
      const { svc, tracerProvider, loggerProvider, langfuseProcessor } = applicationProviders();
      // The AI SDK v7 GenAI integration, with the tracer it takes from a global provider by default
      // (instrumentation scope `gen_ai`, whose `gen_ai.input.messages` Langfuse's media step reads).
      await generateText({
        model: new MockLanguageModelV4({ doGenerate: answer }),
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in this picture?' },
              { type: 'file', data: image, mediaType: 'image/png' },
            ],
          },
        ],
        telemetry: {
          isEnabled: true,
          integrations: [
            new OpenTelemetry({ tracer: tracerProvider.getTracer('gen_ai') }) as unknown as Telemetry,
          ],
        },
      });
      // Langfuse's processor has hashed the image, replaced it in the span's attributes and exported
      // the span; only then does the service's batch go out.
      await langfuseProcessor.forceFlush();
      const withImage = langfuse.spans.filter((s) =>
        s.attributes['gen_ai.input.messages']?.includes('"blob"'),
      );
      const seen = withImage.at(-1);
      expect(seen, 'Langfuse exported the span with the image').toBeDefined();
      const mediaId = Buffer.from(catSha, 'hex').toString('base64url').slice(0, 22);
      expect(seen!.attributes['gen_ai.input.messages']).toContain(
        `@@@langfuseMedia:type=image/png|id=${mediaId}|source=bytes@@@`,
      );
      expect(seen!.attributes['gen_ai.input.messages']).not.toContain(CAT_PNG.base64.slice(0, 64));
      expect(langfuse.uploads.get(mediaId)?.equals(CAT_PNG.bytes)).toBe(true);

      const report = await svc.flush();
      expect(report).toMatchObject({ uploadFallbacks: 0 });
      expect(report.uploadedValues).toBeGreaterThanOrEqual(1);
      const stored = media.spans(seen!.traceId).find((s) => s.spanId === seen!.spanId);
      expect(stored, 'the service stored the same span').toBeDefined();
      const messages = JSON.parse(stored!.attributes['gen_ai.input.messages'] as string) as {
        parts: Record<string, unknown>[];
      }[];
      expect(messages[0]!.parts[1]).toMatchObject({
        type: 'blob',
        mime_type: 'image/png',
        sha256: catSha,
        size: CAT_PNG.bytes.length,
      });
      expect(blobsOf(stored!.attributes)).toEqual([
        {
          key: 'gen_ai.input.messages#/0/parts/1',
          sha256: catSha,
          size: CAT_PNG.bytes.length,
          content_type: 'image/png',
        },
      ]);
      expect(await media.download(seen!.traceId, catSha)).toMatchObject({
        status: 200,
        sha256: catSha,
        size: CAT_PNG.bytes.length,
      });
      await svc.shutdown();
      await tracerProvider.shutdown();
      await loggerProvider.shutdown();
    },
  );

  it("a data: URL in Langfuse's own observation input still uploads after Langfuse replaced it", async () => {
    const { svc, tracerProvider, loggerProvider, langfuseProcessor } = applicationProviders();
    const input = JSON.stringify({
      question: 'What is in this picture?',
      image: dataUrl(CAT_PNG, 'image/png'),
    });
    const span = tracerProvider.getTracer('app').startSpan('describe image', {
      attributes: { 'gen_ai.operation.name': 'chat', 'langfuse.observation.input': input },
    });
    const { traceId, spanId } = span.spanContext();
    span.end();
    await langfuseProcessor.forceFlush();
    const seen = langfuse.spans.find((s) => s.spanId === spanId);
    expect(seen?.attributes['langfuse.observation.input']).toMatch(
      /"image":"@@@langfuseMedia:type=image\/png\|id=[\w-]{22}\|source=base64_data_uri@@@"/,
    );

    expect(await svc.flush()).toMatchObject({ uploadedValues: 1, uploadFallbacks: 0 });
    const stored = media.spans(traceId).find((s) => s.spanId === spanId);
    expect(JSON.parse(stored!.attributes['langfuse.observation.input'] as string).image).toMatchObject({
      type: 'blob',
      mime_type: 'image/png',
      sha256: catSha,
      size: CAT_PNG.bytes.length,
    });
    expect(blobsOf(stored!.attributes).map((entry) => entry.sha256)).toEqual([catSha]);
    expect(await media.download(traceId, catSha)).toMatchObject({ status: 200, sha256: catSha });
    await svc.shutdown();
    await tracerProvider.shutdown();
    await loggerProvider.shutdown();
  });
});
