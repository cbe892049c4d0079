/**
 * Quickstart: an instrumented "LLM app" sends one trace and its logs to the service over OTLP/HTTP,
 * then asks for the trace receipt to prove the spans were stored.
 *
 * Until the SDK exists, this uses the official OpenTelemetry exporters. It registers no globals:
 * the tracer and logger providers are its own, and span parents are passed explicitly.
 *
 * Run it against any deployment:
 *   SVC_BASE_URL=https://… SVC_API_KEY=svc_tracing_… node examples/quickstart/index.ts
 */
import { type Context, context, SeverityNumber, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';

/** What `GET /api/v1/traces/{traceId}/receipt` answers. */
interface TraceReceipt {
  traceId: string;
  spanCount: number;
  revision: number;
  fields: Record<string, boolean>;
  matchedSpanIds: string[];
  missingSpanIds: string[];
  traceUrl: string;
}

/** How long to wait for the receipt to list every span. */
const RECEIPT_DEADLINE_MS = 10_000;

function fail(message: string): never {
  console.error(`quickstart: ${message}`);
  process.exit(1);
}

function requiredEnv(name: string, example: string): string {
  const value = process.env[name]?.trim();
  if (!value) {
    fail(
      `${name} is not set. Set SVC_BASE_URL to the service's origin and SVC_API_KEY to a tracing key, e.g.\n` +
        `  ${name}=${example} node examples/quickstart/index.ts\n` +
        'or run the local demo from the repository root: npx -y pnpm@10.34.8 demo',
    );
  }
  return value;
}

const baseUrl = requiredEnv('SVC_BASE_URL', 'http://127.0.0.1:8787').replace(/\/+$/, '');
const apiKey = requiredEnv('SVC_API_KEY', 'svc_tracing_…');
if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
  fail(`SVC_BASE_URL must be an http(s) URL such as http://127.0.0.1:8787; got ${JSON.stringify(baseUrl)}`);
}
const headers = { Authorization: `Bearer ${apiKey}` };

// --- OpenTelemetry setup: own providers, official OTLP/HTTP (JSON) exporters ---------------------

const resource = resourceFromAttributes({
  [ATTR_SERVICE_NAME]: 'quickstart-chat',
  [ATTR_SERVICE_VERSION]: '0.1.0',
});
const tracerProvider = new TracerProvider({
  resource,
  spanProcessors: [
    new BatchSpanProcessor({
      exporter: new OTLPTraceExporter({ url: `${baseUrl}/api/v1/otlp/v1/traces`, headers }),
    }),
  ],
});
const loggerProvider = new LoggerProvider({
  resource,
  processors: [
    new BatchLogRecordProcessor({
      exporter: new OTLPLogExporter({ url: `${baseUrl}/api/v1/otlp/v1/logs`, headers }),
    }),
  ],
});
const tracer = tracerProvider.getTracer('quickstart', '0.1.0');
const logger = loggerProvider.getLogger('quickstart', '0.1.0');

// --- The app: one chat turn of a tiny weather assistant -------------------------------------------

const MODEL = 'gpt-4o-mini';
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** A stand-in for a real tool. */
async function getWeather(city: string): Promise<{ city: string; condition: string; celsius: number }> {
  await sleep(20);
  return { city, condition: 'sunny', celsius: 24 };
}

/** A stand-in for a real model call, answering from the tool's result. */
async function callModel(weather: string): Promise<{ answer: string; usage: [number, number] }> {
  await sleep(50);
  return { answer: `It is ${weather} — a good day for a walk.`, usage: [42, 12] };
}

/** Runs one traced chat turn; returns the trace ID and the span IDs to confirm. */
async function chatTurn(question: string): Promise<{ traceId: string; spanIds: string[] }> {
  const root = tracer.startSpan('chat-turn', {
    attributes: { 'gen_ai.conversation.id': 'conversation-quickstart-1', 'user.id': 'user-42' },
  });
  const inRoot: Context = trace.setSpan(context.active(), root);

  // The tool span: the assistant looks up the weather.
  const toolArguments = { city: 'Paris' };
  const toolSpan = tracer.startSpan(
    'execute_tool get_weather',
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'get_weather',
        'gen_ai.tool.type': 'function',
        'gen_ai.tool.call.id': 'call_weather_1',
        'gen_ai.tool.call.arguments': JSON.stringify(toolArguments),
      },
    },
    inRoot,
  );
  const weather = await getWeather(toolArguments.city);
  toolSpan.setAttribute('gen_ai.tool.call.result', JSON.stringify(weather));
  toolSpan.end();

  // The model span: GenAI semantic-convention attributes of a chat completion.
  const weatherText = `${weather.condition}, ${weather.celsius} °C in ${weather.city}`;
  const inputMessages = [
    { role: 'system', parts: [{ type: 'text', content: 'You are a concise weather assistant.' }] },
    { role: 'user', parts: [{ type: 'text', content: question }] },
    {
      role: 'tool',
      parts: [{ type: 'tool_call_response', id: 'call_weather_1', response: weatherText }],
    },
  ];
  const modelSpan = tracer.startSpan(
    `chat ${MODEL}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': MODEL,
        'gen_ai.input.messages': JSON.stringify(inputMessages),
      },
    },
    inRoot,
  );
  const { answer, usage } = await callModel(weatherText);
  const outputMessages = [
    { role: 'assistant', parts: [{ type: 'text', content: answer }], finish_reason: 'stop' },
  ];
  modelSpan.setAttributes({
    'gen_ai.response.model': `${MODEL}-2024-07-18`,
    'gen_ai.response.finish_reasons': ['stop'],
    'gen_ai.usage.input_tokens': usage[0],
    'gen_ai.usage.output_tokens': usage[1],
    'gen_ai.output.messages': JSON.stringify(outputMessages),
  });
  modelSpan.setStatus({ code: SpanStatusCode.OK });

  // A log record correlated with the model span: the inference details event.
  logger.emit({
    eventName: 'gen_ai.client.inference.operation.details',
    context: trace.setSpan(inRoot, modelSpan),
    severityNumber: SeverityNumber.INFO,
    severityText: 'INFO',
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': MODEL,
      'gen_ai.usage.input_tokens': usage[0],
      'gen_ai.usage.output_tokens': usage[1],
      'gen_ai.output.messages': JSON.stringify(outputMessages),
    },
  });
  modelSpan.end();

  // An application log correlated with the root span.
  logger.emit({
    context: inRoot,
    severityNumber: SeverityNumber.INFO,
    severityText: 'INFO',
    body: `answered: ${answer}`,
  });
  root.end();

  return {
    traceId: root.spanContext().traceId,
    spanIds: [root, toolSpan, modelSpan].map((span) => span.spanContext().spanId),
  };
}

// --- Export, then check the receipt ---------------------------------------------------------------

function describeError(error: unknown): string {
  const errors = Array.isArray(error) ? error : [error];
  return errors
    .map((e: unknown) => {
      if (!(e instanceof Error)) return String(e);
      // Only the error's own message and code: never the server's response body.
      const { code } = e as Error & { code?: unknown };
      return [
        e.message || e.name,
        typeof code === 'number' ? `(HTTP ${code})` : typeof code === 'string' ? `(${code})` : '',
      ]
        .filter(Boolean)
        .join(' ');
    })
    .join('; ');
}

/** Polls the receipt with backoff until every expected span is matched, or the deadline passes. */
async function waitForReceipt(traceId: string, spanIds: readonly string[]): Promise<TraceReceipt> {
  const query = new URLSearchParams(spanIds.map((id): [string, string] => ['expectedSpanId', id]));
  const url = `${baseUrl}/api/v1/traces/${traceId}/receipt?${query}`;
  const deadline = Date.now() + RECEIPT_DEADLINE_MS;
  let delay = 100;
  let last = 'no answer yet';
  for (;;) {
    try {
      const response = await fetch(url, { headers, signal: AbortSignal.timeout(5_000) });
      if (response.ok) {
        const receipt = (await response.json()) as TraceReceipt;
        if (receipt.missingSpanIds.length === 0) return receipt;
        last = `still missing spans ${receipt.missingSpanIds.join(', ')}`;
      } else {
        await response.body?.cancel();
        last = `HTTP ${response.status}`;
        // 404 means "not stored yet"; 408, 429 and 5xx may pass. Anything else will not.
        if (![404, 408, 429].includes(response.status) && response.status < 500) {
          fail(`the receipt request was refused: ${last}`);
        }
      }
    } catch (error) {
      last = describeError(error);
    }
    if (Date.now() + delay > deadline) {
      fail(`the trace was not confirmed within ${RECEIPT_DEADLINE_MS / 1000} s (${last})`);
    }
    await sleep(delay);
    delay = Math.min(delay * 2, 2_000);
  }
}

const { traceId, spanIds } = await chatTurn('What is the weather in Paris?');

try {
  // forceFlush reports a failed span export (wrong URL or key); shutdown then flushes the logs.
  await tracerProvider.forceFlush();
  await Promise.all([tracerProvider.shutdown(), loggerProvider.shutdown()]);
} catch (error) {
  fail(`exporting to ${baseUrl} failed: ${describeError(error)}`);
}

const receipt = await waitForReceipt(traceId, spanIds);
console.log(JSON.stringify(receipt, null, 2));
console.log(`Trace: ${receipt.traceUrl}`);
