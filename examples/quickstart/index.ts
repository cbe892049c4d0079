/**
 * Quickstart: a tiny weather assistant traced with @svc-run/sdk. One chat turn — an AI SDK v7
 * `generateText` call that uses a tool, with a photo in the user's message — is recorded as a trace
 * inside `withSpan` (with a session and a user), exported to the service, then verified with the
 * trace receipt. The photo leaves the span as its SHA-256 digest and uploads out of band; the
 * answer is also kept as a recorded file. After verification each file is read back with a Read
 * key and its digest and state are printed.
 *
 * No model provider is reachable from this machine, so the AI SDK's mock language model answers:
 * first with a `get_weather` tool call, then with text. The recorded spans (`ai.generateText`,
 * `ai.generateText.doGenerate`, `ai.toolCall`) have the same shape as with a real provider; swap
 * `weatherModel()` for e.g. `openai('gpt-4o-mini')` to trace a real call.
 *
 * Run it against any deployment:
 *   SVC_BASE_URL=https://… SVC_API_KEY=svc_tracing_… SVC_READ_KEY=svc_read_… node examples/quickstart/index.ts
 * (without SVC_READ_KEY the files' states are not checked).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createMediaReader, createSvc, MediaFetchError, SvcExportError } from '@svc-run/sdk';
import { svcTelemetry } from '@svc-run/sdk/ai-sdk';
import { generateText, isStepCount, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';

function fail(message: string): never {
  console.error(`quickstart: ${message}`);
  process.exit(1);
}

// The application reads its own configuration; the SDK never reads the environment.
const baseUrl = process.env.SVC_BASE_URL?.trim();
const apiKey = process.env.SVC_API_KEY?.trim();
const readKey = process.env.SVC_READ_KEY?.trim();
if (!baseUrl || !apiKey) {
  fail(
    'set SVC_BASE_URL to the service origin and SVC_API_KEY to a tracing key, e.g.\n' +
      '  SVC_BASE_URL=http://127.0.0.1:4318 SVC_API_KEY=svc_tracing_… node examples/quickstart/index.ts\n' +
      'or run the local demo from the repository root: npx -y pnpm@10.34.8 demo',
  );
}

// One client per process, created at start-up.
const svc = createSvc({
  apiKey,
  baseUrl,
  serviceName: 'quickstart-chat',
  serviceVersion: '0.1.0',
  captureContent: true,
});

/** The mock model: a tool call first, then the answer built from the tool's result. */
function weatherModel(): MockLanguageModelV4 {
  const usage = {
    inputTokens: { total: 42, noCache: 42, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 12, text: 12, reasoning: undefined },
  };
  const response = { id: 'resp-1', modelId: 'mock-weather-model', timestamp: new Date() };
  return new MockLanguageModelV4({
    provider: 'mock',
    modelId: 'mock-weather-model',
    doGenerate: [
      {
        content: [
          { type: 'tool-call', toolCallId: 'call-1', toolName: 'get_weather', input: '{"city":"Paris"}' },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        response,
        warnings: [],
      },
      {
        content: [{ type: 'text', text: 'It is sunny and 24 °C in Paris.' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        response,
        warnings: [],
      },
    ],
  });
}

const getWeather = tool({
  description: 'The current weather in a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, condition: 'sunny', celsius: 24 }),
});

const question = 'What is the weather in Paris, where I took this photo?';
const photo = readFileSync(new URL('./cat.png', import.meta.url));
const photoUrl = `data:image/png;base64,${photo.toString('base64')}`;
const turn = await svc.withSpan(
  'chat-turn',
  async (span) => {
    const { text } = await generateText({
      model: weatherModel(),
      tools: { get_weather: getWeather },
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: question },
            { type: 'file', data: photoUrl, mediaType: 'image/png', filename: 'cat.png' },
          ],
        },
      ],
      stopWhen: isStepCount(3),
      telemetry: svcTelemetry(svc),
    });
    span.setOutput({ answer: text });
    const answerFile = Buffer.from(`${text}\n`, 'utf8');
    span.recordFile({
      role: 'output',
      data: answerFile,
      mediaType: 'text/plain',
      name: 'answer.txt',
      upload: true,
    });
    return { traceId: span.traceId, spanId: span.spanId, answer: text, answerFile };
  },
  { input: { question }, sessionId: 'conversation-quickstart-1', userId: 'user-42' },
);
console.log(`Assistant: ${turn.answer}`);

try {
  // shutdown() flushes: the spans first, then the uploads queued before it.
  const report = await svc.shutdown();
  console.log(`Exported ${report.acceptedSpans} spans; uploaded ${report.uploadedValues} files.`);
  if (report.uploadFallbacks > 0) fail(`${report.uploadFallbacks} files could not be uploaded`);
} catch (error) {
  if (SvcExportError.isInstance(error))
    fail(`export failed: ${error.issues.map((i) => i.message).join('; ')}`);
  throw error;
}

const { verified, receipt } = await svc.verifyTrace(turn.traceId, {
  expectedSpanIds: [turn.spanId],
  requiredFields: ['input', 'output', 'model', 'usage', 'session', 'user', 'tool'],
});
console.log(JSON.stringify(receipt, null, 2));
if (!verified) fail('the trace was not confirmed within the timeout');

// Receipts do not prove media: read each file back (a Read key) and compare its SHA-256 and size.
const files = [
  { what: 'photo in the message (cat.png)', bytes: photo },
  { what: 'recorded file (answer.txt)', bytes: turn.answerFile },
];
if (readKey) {
  const media = createMediaReader({ apiKey: readKey, baseUrl });
  for (const file of files) {
    const sha256 = createHash('sha256').update(file.bytes).digest('hex');
    let state: string;
    try {
      const stored = await media.fetch({ traceId: turn.traceId, sha256 });
      state = stored.length === file.bytes.length ? 'stored' : 'size differs';
    } catch (error) {
      if (!MediaFetchError.isInstance(error)) throw error;
      state = error.reason === 'missing' ? 'not uploaded' : error.reason;
    }
    console.log(`File ${file.what}: sha256 ${sha256}, ${file.bytes.length} bytes, state ${state}`);
    if (state !== 'stored') fail(`the ${file.what} is not stored`);
  }
} else {
  console.log('Set SVC_READ_KEY to a Read key to read the files back and show their states.');
}
console.log(`Trace: ${receipt!.traceUrl}`);
