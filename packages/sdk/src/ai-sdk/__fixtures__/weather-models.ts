/**
 * Mock language models for the AI SDK adapter tests: each answers a weather question with a
 * `get_weather` tool call first, then (given the tool result) with text. Shapes follow the AI SDK's
 * language model specifications v4 (`ai@7`, `ai/test`) and v3 (`ai@6`, `ai6/test`).
 * @module
 */
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { MockLanguageModelV3 } from 'ai6/test';

export const QUESTION = 'What is the weather in Paris? (secret-question-7f3a)';
export const ANSWER = 'It is sunny, 24 °C in Paris. (secret-answer-9c1d)';
export const TOOL_INPUT = { city: 'Paris' };
export const TOOL_OUTPUT = {
  city: 'Paris',
  condition: 'sunny',
  celsius: 24,
  note: 'secret-tool-result-4b2e',
};

const usage = {
  inputTokens: { total: 42, noCache: 42, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 12, text: 12, reasoning: undefined },
};
const toolCall = {
  type: 'tool-call' as const,
  toolCallId: 'call-1',
  toolName: 'get_weather',
  input: JSON.stringify(TOOL_INPUT),
};
const toolCalls = { unified: 'tool-calls' as const, raw: 'tool_calls' };
const stop = { unified: 'stop' as const, raw: 'stop' };
const response = { id: 'resp-1', modelId: 'mock-model-2026', timestamp: new Date(0) };

const generateResults = [
  { content: [toolCall], finishReason: toolCalls, usage, response, warnings: [] },
  { content: [{ type: 'text' as const, text: ANSWER }], finishReason: stop, usage, response, warnings: [] },
];

type StreamPartOf<M extends { doStream: (options: never) => PromiseLike<{ stream: unknown }> }> =
  Awaited<ReturnType<M['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;

function streamParts(step: number) {
  return step === 0
    ? [
        { type: 'stream-start' as const, warnings: [] },
        { type: 'response-metadata' as const, ...response },
        toolCall,
        { type: 'finish' as const, finishReason: toolCalls, usage },
      ]
    : [
        { type: 'stream-start' as const, warnings: [] },
        { type: 'response-metadata' as const, ...response },
        { type: 'text-start' as const, id: 't-1' },
        { type: 'text-delta' as const, id: 't-1', delta: ANSWER },
        { type: 'text-end' as const, id: 't-1' },
        { type: 'finish' as const, finishReason: stop, usage },
      ];
}

/** AI SDK v7 (language model specification v4). */
export function weatherModelV4(): MockLanguageModelV4 {
  let streams = 0;
  return new MockLanguageModelV4({
    provider: 'mock-provider',
    modelId: 'mock-model',
    doGenerate: generateResults,
    doStream: async () => ({
      stream: convertArrayToReadableStream<StreamPartOf<MockLanguageModelV4>>(streamParts(streams++)),
    }),
  });
}

/** AI SDK v6 (language model specification v3). */
export function weatherModelV3(): MockLanguageModelV3 {
  let streams = 0;
  return new MockLanguageModelV3({
    provider: 'mock-provider',
    modelId: 'mock-model',
    doGenerate: generateResults,
    doStream: async () => ({
      stream: convertArrayToReadableStream<StreamPartOf<MockLanguageModelV3>>(streamParts(streams++)),
    }),
  });
}
