/**
 * Quickstart: a tiny "LLM app" traced with @svc-run/sdk. One chat turn (a tool call and a model
 * call, with their messages) is recorded as a trace and an inference-details log, exported to the
 * service, and then verified with the trace receipt.
 *
 * No model provider is reachable here, so the model's answer is computed locally; the recorded
 * spans have the same shape as a real call's.
 *
 * Run it against any deployment:
 *   SVC_BASE_URL=https://… SVC_API_KEY=svc_tracing_… node examples/quickstart/index.ts
 */
import { createSvc, SvcExportError } from '@svc-run/sdk';

function fail(message: string): never {
  console.error(`quickstart: ${message}`);
  process.exit(1);
}

// The application reads its own configuration; the SDK never reads the environment.
const baseUrl = process.env.SVC_BASE_URL?.trim();
const apiKey = process.env.SVC_API_KEY?.trim();
if (!baseUrl || !apiKey) {
  fail(
    'set SVC_BASE_URL to the service origin and SVC_API_KEY to a tracing key, e.g.\n' +
      '  SVC_BASE_URL=http://127.0.0.1:4318 SVC_API_KEY=svc_tracing_… node examples/quickstart/index.ts\n' +
      'or run the local demo from the repository root: npx -y pnpm@10.34.8 demo',
  );
}

const svc = createSvc({
  apiKey,
  baseUrl,
  serviceName: 'quickstart-chat',
  serviceVersion: '0.1.0',
  captureContent: true,
});

const MODEL = 'gpt-4o-mini';

/** A stand-in for a real tool. */
async function getWeather(city: string): Promise<{ city: string; condition: string; celsius: number }> {
  return { city, condition: 'sunny', celsius: 24 };
}

const question = 'What is the weather in Paris?';
const turn = await svc.withSpan(
  'chat-turn',
  async (root) => {
    const weather = await svc.tool('get_weather', { city: 'Paris' }, () => getWeather('Paris'));
    const answer = `It is ${weather.condition}, ${weather.celsius} °C in ${weather.city}.`;
    const model = await svc.withSpan(
      `chat ${MODEL}`,
      async (span) => {
        span.span.setAttributes({
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': MODEL,
          'gen_ai.response.model': `${MODEL}-2024-07-18`,
          'gen_ai.usage.input_tokens': 42,
          'gen_ai.usage.output_tokens': 12,
        });
        svc.recordMessages({
          input: [{ role: 'user', parts: [{ type: 'text', content: question }] }],
          output: [{ role: 'assistant', parts: [{ type: 'text', content: answer }], finish_reason: 'stop' }],
        });
        return span.spanId;
      },
      { kind: 3 /* SpanKind.CLIENT */ },
    );
    root.setOutput({ answer });
    return { traceId: root.traceId, rootId: root.spanId, modelId: model };
  },
  { input: { question }, sessionId: 'conversation-quickstart-1', userId: 'user-42' },
);

try {
  const report = await svc.shutdown();
  console.log(`Exported ${report.acceptedSpans} spans and ${report.acceptedLogs} log record(s).`);
} catch (error) {
  if (SvcExportError.isInstance(error)) {
    fail(`export failed: ${error.issues.map((i) => i.message).join('; ')}`);
  }
  throw error;
}

const { verified, receipt } = await svc.verifyTrace(turn.traceId, {
  expectedSpanIds: [turn.rootId, turn.modelId],
  requiredFields: ['input', 'output', 'model', 'usage', 'session', 'user', 'tool'],
});
console.log(JSON.stringify(receipt, null, 2));
if (!verified) fail('the trace was not confirmed within the timeout');
console.log(`Trace: ${receipt!.traceUrl}`);
