/**
 * OpenLLMetry (Traceloop): an `openai.chat` span with indexed prompt/completion attributes, a
 * legacy `llm.prompts.<n>` pair, and a workflow task's entity input/output merged in. Names from
 * traceloop/openllmetry-js packages/ai-semantic-conventions/src/SemanticAttributes.ts and the
 * OpenAI instrumentation's `gen_ai.prompt.<n>.*` / `gen_ai.completion.<n>.*` attributes.
 * @module
 */

import type { ConventionFixture } from './convention-fixture.js';

/** An OpenLLMetry chat span. */
export const openLlmetryFixture: ConventionFixture = {
  convention: 'OpenLLMetry',
  source: 'traceloop/openllmetry-js ai-semantic-conventions SemanticAttributes.ts, instrumentation-openai',
  spanName: 'openai.chat',
  attributes: {
    'llm.request.type': 'chat',
    'gen_ai.system': 'OpenAI',
    'gen_ai.request.model': 'gpt-4o',
    'gen_ai.response.model': 'gpt-4o-2024-08-06',
    'gen_ai.request.max_tokens': 256,
    'gen_ai.prompt.0.role': 'system',
    'gen_ai.prompt.0.content': 'You are a helpful assistant.',
    'gen_ai.prompt.1.role': 'user',
    'gen_ai.prompt.1.content':
      '[{"type":"text","text":"What is this?"},{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo="}}]',
    'gen_ai.completion.0.role': 'assistant',
    'gen_ai.completion.0.content': 'It is a cat.',
    'gen_ai.completion.0.finish_reason': 'stop',
    'gen_ai.completion.0.tool_calls.0.name': 'lookup_breed',
    'gen_ai.completion.0.tool_calls.0.arguments': '{"animal":"cat"}',
    'llm.prompts.0.role': 'user',
    'llm.prompts.0.content': 'Legacy prompt text',
    'llm.request.functions.0.name': 'lookup_breed',
    'llm.request.functions.0.parameters': '{"type":"object","properties":{"animal":{"type":"string"}}}',
    'gen_ai.usage.prompt_tokens': 40,
    'gen_ai.usage.completion_tokens': 6,
    'llm.usage.total_tokens': 46,
    'traceloop.span.kind': 'task',
    'traceloop.workflow.name': 'describe_image',
    'traceloop.entity.name': 'describe',
    'traceloop.entity.input': '{"args":[],"kwargs":{"question":"What is this?"}}',
    'traceloop.entity.output': '"It is a cat."',
    'traceloop.association.properties.session_id': 'sess-42',
  },
  contentAttributes: [
    'gen_ai.prompt.0.role',
    'gen_ai.prompt.0.content',
    'gen_ai.prompt.1.role',
    'gen_ai.prompt.1.content',
    'gen_ai.completion.0.role',
    'gen_ai.completion.0.content',
    'gen_ai.completion.0.finish_reason',
    'gen_ai.completion.0.tool_calls.0.name',
    'gen_ai.completion.0.tool_calls.0.arguments',
    'llm.prompts.0.role',
    'llm.prompts.0.content',
    'traceloop.entity.input',
    'traceloop.entity.output',
  ],
};
