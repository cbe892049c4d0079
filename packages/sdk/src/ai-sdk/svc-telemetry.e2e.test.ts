import { LegacyOpenTelemetry } from '@ai-sdk/otel';
import { generateText, isStepCount, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { SafeSvc } from '../client/create-svc-safe.js';
import { createSvcSafe } from '../client/create-svc-safe.js';
import type { SvcClient } from '../client/svc-client.js';
import { only, type StoredSpan, useReferenceServer } from './__fixtures__/reference-server.js';
import { ANSWER, QUESTION, TOOL_INPUT, TOOL_OUTPUT, weatherModelV4 } from './__fixtures__/weather-models.js';
import { svcTelemetry } from './svc-telemetry.js';

const server = useReferenceServer();

const tools = {
  get_weather: tool({
    description: 'Current weather in a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ ...TOOL_OUTPUT, city }),
  }),
};

// Content per the content policy. Tool definitions (`ai.prompt.tools`) are the developer's own
// schemas, not content: the policy keeps them when a call records inputs.
const CONTENT_ATTRIBUTES = [
  'ai.prompt',
  'ai.prompt.messages',
  'ai.response.text',
  'ai.response.toolCalls',
  'ai.toolCall.args',
  'ai.toolCall.result',
];

type Run = (svc: SvcClient | SafeSvc, telemetry: ReturnType<typeof svcTelemetry>) => Promise<string>;

const runGenerate: Run = async (_svc, telemetry) => {
  const result = await generateText({
    model: weatherModelV4(),
    tools,
    prompt: QUESTION,
    stopWhen: isStepCount(3),
    telemetry,
  });
  return result.text;
};

const runStream: Run = async (_svc, telemetry) => {
  const result = streamText({
    model: weatherModelV4(),
    tools,
    prompt: QUESTION,
    stopWhen: isStepCount(3),
    telemetry,
  });
  // Keep the enclosing span open until the stream has finished.
  return await result.text;
};

/** Runs `run` inside `svc.withSpan('agent', …)`, flushes, and returns what the server stored. */
async function agentTurn(svc: SvcClient | SafeSvc, run: Run, telemetry = svcTelemetry(svc)) {
  const turn = await svc.withSpan(
    'agent',
    async (span) => ({ text: await run(svc, telemetry), traceId: span.traceId, agentId: span.spanId }),
    { sessionId: 'session-ai-1', userId: 'user-ai-1' },
  );
  await svc.flush();
  return { ...turn, spans: server.spans(turn.traceId) };
}

/** Checks the `ai.*` spans of one two-step tool-calling run, nested under `agent`. */
function expectNestedAiSpans(spans: StoredSpan[], agentId: string, operation: string, step: string) {
  const agent = only(spans, 'agent');
  expect(agent.spanId).toBe(agentId);
  expect(agent.parentSpanId).toBe('');
  const root = only(spans, operation);
  expect(root.parentSpanId).toBe(agentId);
  const steps = spans.filter((s) => s.name === step);
  expect(steps).toHaveLength(2);
  for (const s of steps) expect(s.parentSpanId).toBe(root.spanId);
  const toolCall = only(spans, 'ai.toolCall');
  expect(toolCall.parentSpanId).toBe(steps[0]!.spanId);
  expect(toolCall.attributes).toMatchObject({
    'ai.toolCall.name': 'get_weather',
    'ai.toolCall.id': 'call-1',
  });
  expect(root.attributes).toMatchObject({
    'ai.model.provider': 'mock-provider',
    'ai.model.id': 'mock-model',
  });
  expect(spans).toHaveLength(5);
  return { root, steps, toolCall };
}

function contentAttributes(spans: StoredSpan[]): string[] {
  return spans.flatMap((s) => Object.keys(s.attributes).filter((k) => CONTENT_ATTRIBUTES.includes(k)));
}

describe('svcTelemetry options', () => {
  it('turns telemetry on with the client tracer and capture setting, one integration per client', () => {
    const on = server.client(true);
    const off = server.client(false);
    const first = svcTelemetry(on);
    expect(first).toEqual({
      isEnabled: true,
      recordInputs: true,
      recordOutputs: true,
      integrations: [expect.any(LegacyOpenTelemetry)],
    });
    expect(svcTelemetry(on).integrations![0]).toBe(first.integrations![0]);
    expect(svcTelemetry(off)).toMatchObject({ isEnabled: true, recordInputs: false, recordOutputs: false });
    expect(svcTelemetry(off).integrations![0]).not.toBe(first.integrations![0]);
  });

  it('disables telemetry for a disabled safe client', () => {
    expect(svcTelemetry(createSvcSafe({ enabled: false }))).toEqual({ isEnabled: false });
  });

  it('rejects what is not a client, naming the function and the rule', () => {
    expect(() => svcTelemetry({} as SvcClient)).toThrow(
      new TypeError(
        'svcTelemetry(svc): svc must be a client made by createSvc or createSvcSafe; got an object',
      ),
    );
    expect(() => svcTelemetry(undefined as unknown as SvcClient)).toThrow(/got undefined$/);
  });
});

describe('svcTelemetry with AI SDK v7 against the reference server', () => {
  it('records generateText with a tool call as ai.* spans under the enclosing span, with content', async () => {
    const svc = server.client(true);
    const { text, traceId, agentId, spans } = await agentTurn(svc, runGenerate);
    expect(text).toBe(ANSWER);
    const { root, steps, toolCall } = expectNestedAiSpans(
      spans,
      agentId,
      'ai.generateText',
      'ai.generateText.doGenerate',
    );
    expect(String(root.attributes['ai.prompt'])).toContain(QUESTION);
    expect(root.attributes['ai.response.text']).toBe(ANSWER);
    expect(String(steps[0]!.attributes['ai.prompt.messages'])).toContain(QUESTION);
    expect(JSON.parse(String(steps[0]!.attributes['ai.response.toolCalls']))).toMatchObject([
      { toolCallId: 'call-1', toolName: 'get_weather', input: TOOL_INPUT },
    ]);
    expect(steps[1]!.attributes['ai.response.text']).toBe(ANSWER);
    expect(JSON.parse(String(toolCall.attributes['ai.toolCall.args']))).toEqual(TOOL_INPUT);
    expect(JSON.parse(String(toolCall.attributes['ai.toolCall.result']))).toEqual(TOOL_OUTPUT);

    const verification = await svc.verifyTrace(traceId, {
      expectedSpanIds: spans.map((s) => s.spanId),
      requiredFields: ['model', 'input', 'output'],
      timeoutMillis: 60_000,
    });
    expect(verification.verified).toBe(true);
    expect(verification.receipt?.fields).toMatchObject({
      model: true,
      input: true,
      output: true,
      tool: true,
    });
  });

  it('records streamText with a tool call, the operation span ending after the stream', async () => {
    const svc = server.client(true);
    const { text, agentId, spans } = await agentTurn(svc, runStream);
    expect(text).toBe(ANSWER);
    const { root, steps, toolCall } = expectNestedAiSpans(
      spans,
      agentId,
      'ai.streamText',
      'ai.streamText.doStream',
    );
    expect(String(root.attributes['ai.prompt'])).toContain(QUESTION);
    expect(root.attributes['ai.response.text']).toBe(ANSWER);
    expect(steps[1]!.attributes['ai.response.text']).toBe(ANSWER);
    expect(JSON.parse(String(toolCall.attributes['ai.toolCall.result']))).toEqual(TOOL_OUTPUT);
  });

  for (const [name, run, operation, step] of [
    ['generateText', runGenerate, 'ai.generateText', 'ai.generateText.doGenerate'],
    ['streamText', runStream, 'ai.streamText', 'ai.streamText.doStream'],
  ] as const) {
    it(`records ${name} structure but no content with capture off`, async () => {
      const svc = server.client(false);
      const { text, traceId, agentId, spans } = await agentTurn(svc, run);
      expect(text).toBe(ANSWER);
      expectNestedAiSpans(spans, agentId, operation, step);
      expect(contentAttributes(spans)).toEqual([]);
      expect(JSON.stringify(spans)).not.toContain('secret-');
      const { verified, receipt } = await svc.verifyTrace(traceId, {
        requiredFields: ['model', 'tool'],
        timeoutMillis: 60_000,
      });
      expect(verified).toBe(true);
      expect(receipt?.fields).toMatchObject({ input: false, output: false });
    });
  }

  it('keeps content out with capture off even when the call asks to record it', async () => {
    const svc = server.client(false);
    const telemetry = { ...svcTelemetry(svc), recordInputs: true, recordOutputs: true };
    const { agentId, spans } = await agentTurn(svc, runGenerate, telemetry);
    const { steps } = expectNestedAiSpans(spans, agentId, 'ai.generateText', 'ai.generateText.doGenerate');
    // The AI SDK did record inputs (its tool definitions are kept), the content policy removed content.
    expect(steps[0]!.attributes).toHaveProperty('ai.prompt.tools');
    expect(contentAttributes(spans)).toEqual([]);
    expect(JSON.stringify(spans)).not.toContain('secret-');
  });

  it('records through an enabled safe client', async () => {
    const svc = server.safeClient(true);
    const { text, agentId, spans } = await agentTurn(svc, runGenerate);
    expect(text).toBe(ANSWER);
    expectNestedAiSpans(spans, agentId, 'ai.generateText', 'ai.generateText.doGenerate');
  });

  it('leaves the call working with a disabled safe client', async () => {
    const svc = createSvcSafe({ enabled: false });
    const text = await svc.withSpan('agent', () => runGenerate(svc, svcTelemetry(svc)));
    expect(text).toBe(ANSWER);
  });
});
