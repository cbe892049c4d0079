/**
 * Real OTLP clients, not our own code: the official `@opentelemetry/exporter-trace-otlp-http`,
 * `@opentelemetry/exporter-trace-otlp-proto` and `@opentelemetry/exporter-logs-otlp-http` export
 * spans and logs to a started server; the receipt then shows the spans, counts and fields.
 *
 * Providers are built without registering any global (tracer provider, context manager):
 * parent contexts are passed explicitly.
 */
import { context, type Span, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPTraceExporter as OTLPJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OTLPProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { BatchSpanProcessor, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { TraceReceipt } from '../routes/receipt-route.js';
import { type RunningServer, startServer } from '../start-server.js';
import {
  EXPORT_FAILED,
  EXPORT_SUCCESS,
  type ExportResult,
  GZIP,
  recordingLogExporter,
  recordingSpanExporter,
} from './official-exporters-helpers.js';

const TRACES_PATH = '/api/v1/otlp/v1/traces';
const LOGS_PATH = '/api/v1/otlp/v1/logs';
/** A well-formed span ID no exporter sent. */
const MADE_UP_SPAN_ID = '0badc0ffee0ddf00';

let server: RunningServer;
/** Providers of the running test, shut down after it. */
const openProviders: { shutdown(): Promise<void> }[] = [];

beforeAll(async () => {
  server = await startServer();
});

afterEach(async () => {
  await Promise.allSettled(openProviders.splice(0).map((provider) => provider.shutdown()));
});

afterAll(async () => {
  await server?.close();
});

type Encoding = 'json' | 'protobuf';
type Compression = 'none' | 'gzip';

function traceExporter(encoding: Encoding, compression: Compression, key: string) {
  const config = {
    url: `${server.origin}${TRACES_PATH}`,
    headers: { Authorization: `Bearer ${key}` },
    ...(compression === 'gzip' ? { compression: GZIP } : {}),
  };
  return encoding === 'json' ? new OTLPJsonTraceExporter(config) : new OTLPProtoTraceExporter(config);
}

function logExporter(compression: Compression, key: string) {
  return new OTLPLogExporter({
    url: `${server.origin}${LOGS_PATH}`,
    headers: { Authorization: `Bearer ${key}` },
    ...(compression === 'gzip' ? { compression: GZIP } : {}),
  });
}

/** A non-global tracer provider on an official trace exporter, recording each export and its result. */
function tracing(
  encoding: Encoding,
  compression: Compression,
  processor: 'simple' | 'batch',
  key = server.keys.tracing,
) {
  const { exporter, results, exported } = recordingSpanExporter(traceExporter(encoding, compression, key));
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: `official-exporters-${encoding}` }),
    spanProcessors: [
      processor === 'simple' ? new SimpleSpanProcessor({ exporter }) : new BatchSpanProcessor({ exporter }),
    ],
  });
  openProviders.push(provider);
  return { provider, tracer: provider.getTracer('official-exporters-e2e'), results, exported };
}

/** A non-global logger provider on the official (JSON) logs exporter, recording each export and result. */
function logging(compression: Compression, key = server.keys.tracing) {
  const { exporter, results, exported } = recordingLogExporter(logExporter(compression, key));
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'official-exporters-logs' }),
    processors: [new BatchLogRecordProcessor({ exporter })],
  });
  openProviders.push(provider);
  return { provider, logger: provider.getLogger('official-exporters-e2e'), results, exported };
}

function receiptUrl(traceId: string, expectedSpanIds: readonly string[]): string {
  const query = new URLSearchParams(expectedSpanIds.map((id): [string, string] => ['expectedSpanId', id]));
  return `${server.origin}/api/v1/traces/${traceId}/receipt?${query}`;
}

function fetchReceipt(traceId: string, expectedSpanIds: readonly string[] = []): Promise<Response> {
  return fetch(receiptUrl(traceId, expectedSpanIds), {
    headers: { Authorization: `Bearer ${server.keys.tracing}` },
  });
}

async function receipt(traceId: string, expectedSpanIds: readonly string[] = []): Promise<TraceReceipt> {
  const response = await fetchReceipt(traceId, expectedSpanIds);
  expect(response.status).toBe(200);
  return (await response.json()) as TraceReceipt;
}

function expectAllSucceeded(results: readonly ExportResult[]): void {
  expect(results.length).toBeGreaterThan(0);
  for (const result of results) {
    expect(result.error).toBeUndefined();
    expect(result.code).toBe(EXPORT_SUCCESS);
  }
}

const INPUT_MESSAGES = JSON.stringify([
  { role: 'user', parts: [{ type: 'text', content: 'What is the weather in Paris?' }] },
]);
const OUTPUT_MESSAGES = JSON.stringify([
  {
    role: 'assistant',
    parts: [{ type: 'text', content: 'Sunny, 24 °C.' }],
    finish_reason: 'stop',
  },
]);

interface ExportedTrace {
  traceId: string;
  spanIds: string[];
  modelSpan: Span;
}

/**
 * A root `chat-turn` span with two children: a model call carrying GenAI attributes (input and
 * output only when `withOutput`) and a failed validation step with ERROR status.
 */
function recordChatTurn(tracer: Tracer, { withOutput }: { withOutput: boolean }): ExportedTrace {
  const root = tracer.startSpan(
    'chat-turn',
    { attributes: { 'user.id': 'user-42', 'gen_ai.conversation.id': 'conversation-7' } },
    context.active(),
  );
  const inRoot = trace.setSpan(context.active(), root);
  const modelSpan = tracer.startSpan(
    'chat gpt-4o-mini',
    {
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4o-mini',
        'gen_ai.usage.input_tokens': 12,
        'gen_ai.usage.output_tokens': 7,
        'gen_ai.input.messages': INPUT_MESSAGES,
        ...(withOutput ? { 'gen_ai.output.messages': OUTPUT_MESSAGES } : {}),
      },
    },
    inRoot,
  );
  modelSpan.end();
  const failing = tracer.startSpan('validate answer', {}, inRoot);
  failing.setStatus({ code: SpanStatusCode.ERROR, message: 'answer failed validation' });
  failing.end();
  root.end();
  const traceId = root.spanContext().traceId;
  expect(modelSpan.spanContext().traceId).toBe(traceId);
  expect(failing.spanContext().traceId).toBe(traceId);
  return {
    traceId,
    spanIds: [root, modelSpan, failing].map((span) => span.spanContext().spanId),
    modelSpan,
  };
}

describe('official OTLP trace exporters', () => {
  const cases = [
    { encoding: 'json', compression: 'none', processor: 'simple' },
    { encoding: 'json', compression: 'gzip', processor: 'batch' },
    { encoding: 'protobuf', compression: 'none', processor: 'batch' },
    { encoding: 'protobuf', compression: 'gzip', processor: 'simple' },
  ] as const;

  test.each(cases)(
    '$encoding ($compression, $processor processor): the receipt matches the exact spans, count and fields',
    async ({ encoding, compression, processor }) => {
      const { provider, tracer, results } = tracing(encoding, compression, processor);
      const { traceId, spanIds } = recordChatTurn(tracer, { withOutput: true });

      await provider.forceFlush();
      expectAllSucceeded(results);

      const got = await receipt(traceId, [...spanIds, MADE_UP_SPAN_ID]);
      expect(got.traceId).toBe(traceId);
      expect(got.spanCount).toBe(3);
      expect(got.matchedSpanIds).toEqual(spanIds);
      expect(got.missingSpanIds).toEqual([MADE_UP_SPAN_ID]);
      expect(got.fields).toEqual({
        input: true,
        output: true,
        model: true,
        usage: true,
        session: true,
        user: true,
        error: true,
        tool: false,
      });
      expect(got.traceUrl).toBe(`${server.origin}/traces/${traceId}`);
    },
  );

  test('the same spans sent by the protobuf and then by the JSON exporter are stored once', async () => {
    const { provider, tracer, exported } = tracing('protobuf', 'none', 'simple');
    const { traceId, spanIds } = recordChatTurn(tracer, { withOutput: true });
    await provider.forceFlush();
    const first = await receipt(traceId, spanIds);
    expect(first.spanCount).toBe(3);

    // As a client retrying through another exporter would: the very spans again, now as OTLP JSON.
    expect(exported).toHaveLength(3);
    const json = traceExporter('json', 'none', server.keys.tracing);
    const result = await new Promise<ExportResult>((done) => json.export(exported, done));
    await json.shutdown();
    expect(result.code).toBe(EXPORT_SUCCESS);

    const second = await receipt(traceId, spanIds);
    expect(second.spanCount).toBe(3);
    expect(second.matchedSpanIds).toEqual(spanIds);
    expect(second.fields).toEqual(first.fields);
    expect(second.revision).toBeGreaterThan(first.revision);
  });
});

describe('official OTLP logs exporter', () => {
  test.each(['none', 'gzip'] as const)(
    'a log correlated to a span (%s) grows the revision and adds a field only it carries',
    async (compression) => {
      const { provider: tracerProvider, tracer, results: spanResults } = tracing('json', 'none', 'simple');
      const { traceId, spanIds, modelSpan } = recordChatTurn(tracer, { withOutput: false });
      await tracerProvider.forceFlush();
      expectAllSucceeded(spanResults);

      const before = await receipt(traceId, spanIds);
      expect(before.spanCount).toBe(3);
      expect(before.fields.output).toBe(false);
      expect(before.fields.input).toBe(true);

      const {
        provider: loggerProvider,
        logger,
        results: logResults,
        exported: logRecords,
      } = logging(compression);
      logger.emit({
        eventName: 'gen_ai.client.inference.operation.details',
        context: trace.setSpan(context.active(), modelSpan),
        body: 'inference details',
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.output.messages': OUTPUT_MESSAGES,
        },
      });
      await loggerProvider.forceFlush();
      expectAllSucceeded(logResults);
      expect(logRecords).toHaveLength(1);
      expect(logRecords[0]?.spanContext).toMatchObject({
        traceId,
        spanId: modelSpan.spanContext().spanId,
      });

      const after = await receipt(traceId, spanIds);
      expect(after.revision).toBeGreaterThan(before.revision);
      expect(after.fields).toEqual({ ...before.fields, output: true });
      expect(after.spanCount).toBe(before.spanCount);
      expect(after.matchedSpanIds).toEqual(spanIds);
      expect(after.missingSpanIds).toEqual([]);
    },
  );
});

describe('a key of the wrong preset', () => {
  test.each(['json', 'protobuf'] as const)(
    'makes the official %s trace exporter fail, and nothing is stored',
    async (encoding) => {
      const { provider, tracer, results } = tracing(encoding, 'none', 'simple', server.keys.read);
      const { traceId } = recordChatTurn(tracer, { withOutput: true });

      await expect(provider.forceFlush()).rejects.toBeDefined();
      expect(results.length).toBeGreaterThan(0);
      for (const result of results) {
        expect(result.code).toBe(EXPORT_FAILED);
        expect(result.error).toMatchObject({ code: 403 });
      }

      const response = await fetchReceipt(traceId);
      expect(response.status).toBe(404);
    },
  );

  test('makes the official logs exporter fail, and nothing is stored', async () => {
    const traceId = '5f0c1e3a9b7d24681357924680acebdf';
    const spanId = '1a2b3c4d5e6f7a8b';
    const { provider, logger, results } = logging('none', server.keys.read);
    logger.emit({
      context: trace.setSpanContext(context.active(), { traceId, spanId, traceFlags: 1 }),
      body: 'refused',
      attributes: { 'gen_ai.output.messages': OUTPUT_MESSAGES },
    });

    await provider.forceFlush();
    expect(results.length).toBe(1);
    expect(results[0]?.code).toBe(EXPORT_FAILED);
    expect(results[0]?.error).toMatchObject({ code: 403 });

    const response = await fetchReceipt(traceId);
    expect(response.status).toBe(404);
  });
});
