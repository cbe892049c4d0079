import { generateText, stepCountIs, streamText, tool } from 'ai6';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSvcSafe } from '../client/create-svc-safe.js';
import type { SvcClient } from '../client/svc-client.js';
import { only, type StoredSpan, useReferenceServer } from './__fixtures__/reference-server.js';
import { ANSWER, QUESTION, TOOL_INPUT, TOOL_OUTPUT, weatherModelV3 } from './__fixtures__/weather-models.js';
import { svcExperimentalTelemetry } from './svc-experimental-telemetry.js';

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

type Settings = ReturnType<typeof svcExperimentalTelemetry>;

async function runGenerate(settings: Settings): Promise<string> {
  const result = await generateText({
    model: weatherModelV3(),
    tools,
    prompt: QUESTION,
    stopWhen: stepCountIs(3),
    experimental_telemetry: settings,
  });
  return result.text;
}

async function runStream(settings: Settings): Promise<string> {
  const result = streamText({
    model: weatherModelV3(),
    tools,
    prompt: QUESTION,
    stopWhen: stepCountIs(3),
    experimental_telemetry: settings,
  });
  return await result.text;
}

async function agentTurn(svc: SvcClient, run: (settings: Settings) => Promise<string>, settings?: Settings) {
  const turn = await svc.withSpan('agent', async (span) => ({
    text: await run(settings ?? svcExperimentalTelemetry(svc)),
    traceId: span.traceId,
    agentId: span.spanId,
  }));
  await svc.flush();
  return { ...turn, spans: server.spans(turn.traceId) };
}

function expectNestedAiSpans(spans: StoredSpan[], agentId: string, operation: string, step: string) {
  const root = only(spans, operation);
  expect(root.parentSpanId).toBe(agentId);
  const steps = spans.filter((s) => s.name === step);
  expect(steps).toHaveLength(2);
  for (const s of steps) expect(s.parentSpanId).toBe(root.spanId);
  const toolCall = only(spans, 'ai.toolCall');
  // AI SDK v6 runs tools in the operation's context (v7 in the step's).
  expect(toolCall.parentSpanId).toBe(root.spanId);
  expect(toolCall.attributes).toMatchObject({
    'ai.toolCall.name': 'get_weather',
    'ai.toolCall.id': 'call-1',
  });
  expect(spans).toHaveLength(5);
  return { root, steps, toolCall };
}

function contentAttributes(spans: StoredSpan[]): string[] {
  return spans.flatMap((s) => Object.keys(s.attributes).filter((k) => CONTENT_ATTRIBUTES.includes(k)));
}

describe('svcExperimentalTelemetry', () => {
  it('gives the v6 settings: on, the client tracer, recording set from the capture setting', () => {
    const on = server.client(true);
    expect(svcExperimentalTelemetry(on)).toEqual({
      isEnabled: true,
      tracer: on.tracer,
      recordInputs: true,
      recordOutputs: true,
    });
    expect(svcExperimentalTelemetry(server.client(false))).toMatchObject({
      isEnabled: true,
      recordInputs: false,
      recordOutputs: false,
    });
    expect(svcExperimentalTelemetry(createSvcSafe({ enabled: false }))).toEqual({ isEnabled: false });
    expect(() => svcExperimentalTelemetry(null as unknown as SvcClient)).toThrow(
      new TypeError(
        'svcExperimentalTelemetry(svc): svc must be a client made by createSvc or createSvcSafe; got null',
      ),
    );
  });

  it('records AI SDK v6 generateText with a tool call under the enclosing span, with content', async () => {
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
    expect(JSON.parse(String(toolCall.attributes['ai.toolCall.args']))).toEqual(TOOL_INPUT);
    expect(JSON.parse(String(toolCall.attributes['ai.toolCall.result']))).toEqual(TOOL_OUTPUT);
    const verification = await svc.verifyTrace(traceId, {
      expectedSpanIds: spans.map((s) => s.spanId),
      requiredFields: ['model', 'input', 'output'],
      timeoutMillis: 60_000,
    });
    expect(verification.verified).toBe(true);
  });

  it('records AI SDK v6 streamText with a tool call under the enclosing span', async () => {
    const svc = server.client(true);
    const { text, agentId, spans } = await agentTurn(svc, runStream);
    expect(text).toBe(ANSWER);
    const { root } = expectNestedAiSpans(spans, agentId, 'ai.streamText', 'ai.streamText.doStream');
    expect(root.attributes['ai.response.text']).toBe(ANSWER);
  });

  it('records structure but no content with capture off, even when the call asks to record it', async () => {
    const svc = server.client(false);
    for (const settings of [
      svcExperimentalTelemetry(svc),
      { ...svcExperimentalTelemetry(svc), recordInputs: true, recordOutputs: true },
    ]) {
      const { text, agentId, spans } = await agentTurn(svc, runGenerate, settings);
      expect(text).toBe(ANSWER);
      const { steps } = expectNestedAiSpans(spans, agentId, 'ai.generateText', 'ai.generateText.doGenerate');
      // Tool definitions are recorded only when the call records inputs; the policy keeps them.
      expect(Object.hasOwn(steps[0]!.attributes, 'ai.prompt.tools')).toBe(settings.recordInputs);
      expect(contentAttributes(spans)).toEqual([]);
      expect(JSON.stringify(spans)).not.toContain('secret-');
    }
  });
});
