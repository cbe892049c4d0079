import {
  CONTENT_ATTRIBUTES,
  findContentAttribute,
  isContentAttribute,
  isScannedAttribute,
} from '@svc-run/conventions';
import { describe, expect, it } from 'vitest';
import { aiSdkFixture } from './__fixtures__/ai-sdk.js';
import { genAiSemconvFixture } from './__fixtures__/genai-semconv.js';
import { langfuseFixture } from './__fixtures__/langfuse.js';
import { openInferenceFixture } from './__fixtures__/openinference.js';
import { openLlmetryFixture } from './__fixtures__/openllmetry.js';
import { pydanticAiFixture } from './__fixtures__/pydantic-ai.js';

const fixtures = [
  genAiSemconvFixture,
  aiSdkFixture,
  openInferenceFixture,
  openLlmetryFixture,
  langfuseFixture,
  pydanticAiFixture,
];

describe('isContentAttribute', () => {
  it.each([
    'gen_ai.input.messages',
    'gen_ai.output.messages',
    'gen_ai.system_instructions',
    'gen_ai.tool.call.arguments',
    'gen_ai.tool.call.result',
    'gen_ai.prompt',
    'gen_ai.completion',
    'ai.prompt',
    'ai.prompt.messages',
    'ai.response.text',
    'ai.response.object',
    'ai.response.toolCalls',
    'ai.response.reasoning',
    'ai.toolCall.args',
    'ai.toolCall.result',
    'ai.toolCall.input',
    'ai.toolCall.output',
    'ai.value',
    'ai.values',
    'ai.embedding',
    'ai.embeddings',
    'input.value',
    'output.value',
    'llm.prompts',
    'tool.parameters',
    'traceloop.entity.input',
    'traceloop.entity.output',
    'tool_arguments',
    'tool_response',
    'langfuse.observation.input',
    'langfuse.observation.output',
    'langfuse.observation.metadata',
    'langfuse.trace.input',
    'langfuse.trace.output',
    'langfuse.trace.metadata',
    'metadata',
    'exception.message',
    'exception.stacktrace',
  ])('matches the exact name %s', (name) => {
    expect(isContentAttribute(name)).toBe(true);
  });

  it.each([
    'gen_ai.prompt.0.content',
    'gen_ai.prompt.12.role',
    'gen_ai.completion.0.content',
    'gen_ai.completion.0.tool_calls.0.arguments',
    'llm.input_messages.0.message.content',
    'llm.input_messages.1.message.contents.1.message_content.image.image.url',
    'llm.output_messages.0.message.role',
    'llm.prompts.0.content',
    'llm.completions.0.content',
    'llm.choices.0.completion.text',
    'retrieval.documents.0.document.content',
    'metadata.customer',
    'ai.telemetry.metadata.ticket',
    'langfuse.observation.metadata.key',
    'langfuse.trace.metadata.key',
  ])('matches the prefixed name %s', (name) => {
    expect(isContentAttribute(name)).toBe(true);
  });

  it.each([
    'gen_ai.request.model',
    'gen_ai.response.model',
    'gen_ai.usage.input_tokens',
    'gen_ai.tool.definitions',
    'gen_ai.tool.name',
    'gen_ai.prompt.name',
    'gen_ai.conversation.id',
    'metadataX',
    'metadata.',
    'gen_ai.prompt.',
    'llm.model_name',
    'llm.token_count.prompt',
    'llm.tools.0.tool.json_schema',
    'llm.request.functions.0.parameters',
    'input.mime_type',
    'ai.prompt.tools',
    'ai.prompt.toolChoice',
    'ai.telemetry.metadata.sessionId',
    'ai.telemetry.metadata.userId',
    'ai.model.id',
    'langfuse.observation.model.name',
    'exception.type',
    'error.type',
    'service.name',
    'user.id',
    'session.id',
  ])('does not match %s', (name) => {
    expect(isContentAttribute(name)).toBe(false);
  });

  it.each(fixtures)('agrees with the $convention fixture on every attribute', (fixture) => {
    const content = new Set(fixture.contentAttributes);
    for (const name of Object.keys(fixture.attributes)) {
      expect([name, isContentAttribute(name)]).toEqual([name, content.has(name)]);
    }
    for (const name of fixture.contentAttributes) expect(fixture.attributes).toHaveProperty([name]);
  });
});

describe('isScannedAttribute', () => {
  it.each([
    'gen_ai.input.messages',
    'gen_ai.output.messages',
    'ai.prompt.messages',
    'ai.prompt',
    'input.value',
    'output.value',
    'gen_ai.tool.call.arguments',
    'gen_ai.tool.call.result',
    'ai.toolCall.args',
    'ai.toolCall.result',
    'tool.parameters',
    'tool_arguments',
    'tool_response',
    'metadata',
    'metadata.customer',
    'ai.telemetry.metadata.ticket',
    'gen_ai.prompt.0.content',
    'gen_ai.completion.3.content',
    'llm.input_messages.1.message.contents.1.message_content.image.image.url',
    'llm.output_messages.0.message.contents.0.message_content.image.image.url',
    'traceloop.entity.input',
    'traceloop.entity.output',
    'langfuse.observation.input',
    'langfuse.observation.output',
    'langfuse.observation.metadata',
    'langfuse.observation.metadata.key',
    'langfuse.trace.input',
    'langfuse.trace.output',
    'langfuse.trace.metadata',
    'langfuse.trace.metadata.key',
  ])('reads %s (spec "Automatic capture of files")', (name) => {
    expect(isScannedAttribute(name)).toBe(true);
  });

  it.each([
    'gen_ai.prompt.0.role',
    'llm.input_messages.0.message.content',
    'gen_ai.system_instructions',
    'ai.response.text',
    'exception.message',
    'gen_ai.request.model',
    'ai.telemetry.metadata.sessionId',
  ])('does not read %s', (name) => {
    expect(isScannedAttribute(name)).toBe(false);
  });
});

describe('CONTENT_ATTRIBUTES', () => {
  it('ends every prefix with a dot and names every name once', () => {
    const names = CONTENT_ATTRIBUTES.flatMap((entry) => entry.names);
    expect(new Set(names).size).toBe(names.length);
    for (const prefix of CONTENT_ATTRIBUTES.flatMap((entry) => entry.prefixes)) {
      expect(prefix.endsWith('.')).toBe(true);
    }
  });

  it('says which convention a name comes from', () => {
    expect(findContentAttribute('gen_ai.prompt.0.content')?.convention).toBe('OpenLLMetry');
    expect(findContentAttribute('ai.prompt.messages')?.convention).toBe('Vercel AI SDK');
    expect(findContentAttribute('llm.output_messages.0.message.content')?.convention).toBe('OpenInference');
    expect(findContentAttribute('langfuse.trace.metadata.plan')?.convention).toBe('Langfuse');
    expect(findContentAttribute('gen_ai.prompt.name')).toBeUndefined();
    expect(findContentAttribute('gen_ai.request.model')).toBeUndefined();
  });
});
