/**
 * Vercel AI SDK v5 to v7 (`experimental_telemetry`, and `@ai-sdk/otel` in v7): the attributes of an
 * `ai.generateText.doGenerate` span, with the outer `ai.generateText` prompt and an `ai.toolCall`
 * span's attributes merged in. Names and value shapes from ai-sdk.dev/docs/ai-sdk-core/telemetry
 * ("Collected data") and the SDK's `selectTelemetryAttributes` input/output split.
 * @module
 */

import type { ConventionFixture } from './convention-fixture.js';

/** A Vercel AI SDK text-generation step span. */
export const aiSdkFixture: ConventionFixture = {
  convention: 'Vercel AI SDK',
  source: 'ai-sdk.dev/docs/ai-sdk-core/telemetry, Collected data (AI SDK 5 to 7)',
  spanName: 'ai.generateText.doGenerate',
  attributes: {
    'operation.name': 'ai.generateText.doGenerate support-chat',
    'ai.operationId': 'ai.generateText.doGenerate',
    'ai.model.provider': 'openai.chat',
    'ai.model.id': 'gpt-4o',
    'ai.settings.maxRetries': 2,
    'ai.telemetry.functionId': 'support-chat',
    'ai.telemetry.metadata.sessionId': 'sess-42',
    'ai.telemetry.metadata.userId': 'user-7',
    'ai.telemetry.metadata.ticketSummary': 'Customer Jane Roe cannot log in',
    'ai.prompt': '{"system":"You are a support agent.","prompt":"I cannot log in"}',
    'ai.prompt.messages':
      '[{"role":"system","content":"You are a support agent."},{"role":"user","content":[{"type":"text","text":"I cannot log in"},{"type":"file","mediaType":"image/png","data":"iVBORw0KGgo="}]}]',
    'ai.prompt.tools': [
      '{"type":"function","name":"resetPassword","inputSchema":{"type":"object","properties":{"email":{"type":"string"}}}}',
    ],
    'ai.prompt.toolChoice': '{"type":"auto"}',
    'ai.response.text': 'I have sent you a reset link.',
    'ai.response.reasoning': 'The user needs a password reset.',
    'ai.response.toolCalls':
      '[{"toolCallId":"call_1","toolName":"resetPassword","input":{"email":"jane@example.com"}}]',
    'ai.response.finishReason': 'stop',
    'ai.response.id': 'resp_123',
    'ai.response.model': 'gpt-4o-2024-08-06',
    'ai.response.timestamp': '2025-06-01T12:00:00.000Z',
    'ai.usage.inputTokens': 120,
    'ai.usage.outputTokens': 30,
    'ai.usage.totalTokens': 150,
    'gen_ai.system': 'openai.chat',
    'gen_ai.request.model': 'gpt-4o',
    'gen_ai.response.finish_reasons': ['stop'],
    'gen_ai.usage.input_tokens': 120,
    'gen_ai.usage.output_tokens': 30,
    'ai.toolCall.name': 'resetPassword',
    'ai.toolCall.id': 'call_1',
    'ai.toolCall.args': '{"email":"jane@example.com"}',
    'ai.toolCall.result': '{"sent":true}',
  },
  contentAttributes: [
    'ai.telemetry.metadata.ticketSummary',
    'ai.prompt',
    'ai.prompt.messages',
    'ai.response.text',
    'ai.response.reasoning',
    'ai.response.toolCalls',
    'ai.toolCall.args',
    'ai.toolCall.result',
  ],
};
