// Runs in a temporary project where `@svc-run/sdk` and `@svc-run/server` were installed from their
// packed tarballs beside one AI SDK version (scripts/test-consumer.mjs), with the AI SDK's own mock
// models:
// - a real `generateText` call with a tool, recorded through the SDK's telemetry helper
//   (`svcTelemetry` for v7, `svcExperimentalTelemetry` for v6) inside `svc.withSpan`, exported to
//   the reference server and read back from what the server stored;
// - a hosted judge job on that server, which calls the model through this project's `ai` (an
//   optional peer dependency of the server).
//
//   node ai-sdk-check.mjs <v6|v7>
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSvc } from '@svc-run/sdk';
import { svcExperimentalTelemetry, svcTelemetry } from '@svc-run/sdk/ai-sdk';
import { createEvaluationClient } from '@svc-run/sdk/evals';
import { startServer } from '@svc-run/server';
import * as ai from 'ai';
import * as aiTest from 'ai/test';

const major = process.argv[2];
assert.ok(major === 'v6' || major === 'v7', 'usage: ai-sdk-check.mjs <v6|v7>');

const installed = async (name) =>
  JSON.parse(await readFile(join('node_modules', name, 'package.json'), 'utf8')).version;

const QUESTION = 'What is the weather in Paris? (secret-question-7f3a)';
const ANSWER = 'It is sunny, 24 °C in Paris.';
const usage = {
  inputTokens: { total: 42, noCache: 42, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 12, text: 12, reasoning: undefined },
};
const response = { id: 'resp-1', modelId: 'mock-model-2026', timestamp: new Date(0) };
// The mock model of the AI SDK's own test entry (language model specification v4 in AI SDK v7,
// v3 in v6): a tool call first, then, given the tool's result, the answer.
const MockModel = major === 'v7' ? aiTest.MockLanguageModelV4 : aiTest.MockLanguageModelV3;
const model = new MockModel({
  provider: 'mock-provider',
  modelId: 'mock-model',
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
      content: [{ type: 'text', text: ANSWER }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      response,
      warnings: [],
    },
  ],
});
const tools = {
  get_weather: ai.tool({
    description: 'Current weather in a city',
    inputSchema: ai.jsonSchema({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    }),
    execute: async ({ city }) => ({ city, condition: 'sunny', celsius: 24 }),
  }),
};

// The hosted judge's model: it finds the reply polite.
const judgeModel = new MockModel({
  provider: 'mock',
  modelId: 'judge-1',
  doGenerate: {
    content: [
      { type: 'text', text: JSON.stringify({ explanation: 'Polite and clear.', metrics: { polite: true } }) },
    ],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage,
    warnings: [],
  },
});

/** Runs one hosted judge job on a completed execution; resolves with its stored result. */
async function judgeOnce(evals) {
  const dataset = await evals.createDataset({ name: 'Replies', slug: 'replies' });
  const version = await evals.createDatasetVersion(dataset.id);
  const { item, version: written } = await evals.addCase(version.id, {
    expectedRevision: version.revision,
    externalKey: 'refund',
    inputs: { question: 'Can I get a refund?' },
  });
  await evals.freezeDatasetVersion(version.id, written.revision);
  const scorer = await evals.createScorer({ name: 'Polite judge', slug: 'polite-judge' });
  const judge = await evals.publishScorerVersion(scorer.id, {
    kind: 'llm_judge',
    metrics: [{ name: 'polite', type: 'boolean' }],
    config: {
      model: 'judge-1',
      provider: 'mock',
      rubric: 'Is the reply polite?',
      bindings: [{ name: 'reply', path: '/output', required: true }],
      maxOutputTokens: 100,
      timeoutMs: 600_000,
    },
  });
  const experiment = await evals.createExperiment({
    idempotencyKey: evals.newIdempotencyKey(),
    name: 'Polite replies',
    datasetVersionId: version.id,
    scorerVersionIds: [judge.id],
    config: {},
  });
  const execution = await evals.startExecution(experiment.id, item.id, {
    idempotencyKey: evals.newIdempotencyKey(),
  });
  const completed = await evals.completeExecution(execution.id, {
    idempotencyKey: evals.newIdempotencyKey(),
    state: 'succeeded',
    output: 'Happy to help: yes, within 30 days.',
  });
  const { ids } = await evals.createJudgeJobs(experiment.evaluationRunId, {
    idempotencyKey: evals.newIdempotencyKey(),
    jobs: [{ evaluationItemId: completed.evaluationItemId, scorerVersionId: judge.id }],
  });
  let job = await evals.getJudgeJob(ids[0]);
  while (job.state === 'queued' || job.state === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 20));
    job = await evals.getJudgeJob(ids[0]);
  }
  assert.equal(job.state, 'succeeded', `judge job ended ${job.state}: ${JSON.stringify(job.error)}`);
  return await evals.getResult(job.resultId);
}

const dataDir = await mkdtemp(join(tmpdir(), 'svc-consumer-server-'));
const server = await startServer({ dataDir, judgeModel });
const svc = createSvc({
  apiKey: server.keys.tracing,
  baseUrl: server.origin,
  serviceName: 'consumer-ai-sdk',
  captureContent: true,
});
try {
  const stopWhen = (ai.isStepCount ?? ai.stepCountIs)(3);
  const telemetry =
    major === 'v7'
      ? { telemetry: svcTelemetry(svc) }
      : { experimental_telemetry: svcExperimentalTelemetry(svc) };
  const { text, traceId, agentId } = await svc.withSpan('agent', async (span) => {
    const result = await ai.generateText({ model, tools, prompt: QUESTION, stopWhen, ...telemetry });
    return { text: result.text, traceId: span.traceId, agentId: span.spanId };
  });
  assert.equal(text, ANSWER);
  const report = await svc.flush();

  // What the server stored: the AI SDK's spans under the application's `agent` span.
  const spans = server.traceStore.listSpans(traceId).map((s) => ({
    name: s.name,
    spanId: s.spanId,
    parentSpanId: s.parentSpanId,
    attributes: Object.fromEntries(s.attributes.map((a) => [a.key, Object.values(a.value)[0]])),
  }));
  const named = (name) => spans.filter((s) => s.name === name);
  assert.deepEqual(spans.map((s) => s.name).sort(), [
    'agent',
    'ai.generateText',
    'ai.generateText.doGenerate',
    'ai.generateText.doGenerate',
    'ai.toolCall',
  ]);
  const [root] = named('ai.generateText');
  assert.equal(root.parentSpanId, agentId);
  for (const step of named('ai.generateText.doGenerate')) assert.equal(step.parentSpanId, root.spanId);
  assert.equal(root.attributes['ai.model.id'], 'mock-model');
  assert.equal(root.attributes['ai.response.text'], ANSWER);
  assert.match(String(root.attributes['ai.prompt']), /secret-question-7f3a/);
  const [toolCall] = named('ai.toolCall');
  assert.equal(toolCall.attributes['ai.toolCall.name'], 'get_weather');
  assert.deepEqual(JSON.parse(String(toolCall.attributes['ai.toolCall.args'])), { city: 'Paris' });
  assert.equal(report.acceptedSpans, 5);

  // And the receipt says so, through the SDK's own verification.
  const { verified } = await svc.verifyTrace(traceId, {
    expectedSpanIds: spans.map((s) => s.spanId),
    requiredFields: ['model', 'input', 'output'],
  });
  assert.equal(verified, true);

  const result = await judgeOnce(
    createEvaluationClient({ apiKey: server.keys.readWrite, baseUrl: server.origin }),
  );
  assert.equal(result.status, 'scored');
  assert.equal(result.explanation, 'Polite and clear.');
  assert.deepEqual(result.metrics, [{ name: 'polite', value: true, passed: true }]);

  const otel = major === 'v7' ? ` + @ai-sdk/otel@${await installed('@ai-sdk/otel')}` : '';
  console.log(
    `ai@${await installed('ai')}${otel}: generateText with a tool call stored as 5 spans under the ` +
      "application's span; a hosted judge job scored through this project's ai",
  );
} finally {
  await svc.shutdown();
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
}
