/**
 * OpenInference: an `LLM` span with flattened input/output messages (one multimodal), with a
 * `TOOL` span's and a `RETRIEVER` span's attributes merged in. Names and shapes from
 * Arize-ai/openinference spec/semantic_conventions.md (flattened lists: `llm.input_messages.<n>.…`,
 * `message.contents.<m>.message_content.image.image.url`, `retrieval.documents.<n>.document.…`).
 * @module
 */

import type { ConventionFixture } from './convention-fixture.js';

/** An OpenInference LLM span. */
export const openInferenceFixture: ConventionFixture = {
  convention: 'OpenInference',
  source: 'Arize-ai/openinference spec/semantic_conventions.md',
  spanName: 'ChatCompletion',
  attributes: {
    'openinference.span.kind': 'LLM',
    'llm.model_name': 'gpt-4o',
    'llm.provider': 'openai',
    'llm.system': 'openai',
    'llm.invocation_parameters': '{"temperature":0.2,"max_tokens":256}',
    'input.value': '{"messages":[{"role":"user","content":"What is in this image?"}]}',
    'input.mime_type': 'application/json',
    'output.value': '{"choices":[{"message":{"role":"assistant","content":"A cat."}}]}',
    'output.mime_type': 'application/json',
    'llm.input_messages.0.message.role': 'system',
    'llm.input_messages.0.message.content': 'Describe images briefly.',
    'llm.input_messages.1.message.role': 'user',
    'llm.input_messages.1.message.contents.0.message_content.type': 'text',
    'llm.input_messages.1.message.contents.0.message_content.text': 'What is in this image?',
    'llm.input_messages.1.message.contents.1.message_content.type': 'image',
    'llm.input_messages.1.message.contents.1.message_content.image.image.url':
      'data:image/png;base64,iVBORw0KGgo=',
    'llm.output_messages.0.message.role': 'assistant',
    'llm.output_messages.0.message.content': 'A cat.',
    'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'lookup_breed',
    'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': '{"animal":"cat"}',
    'llm.tools.0.tool.json_schema': '{"type":"function","function":{"name":"lookup_breed"}}',
    'llm.token_count.prompt': 85,
    'llm.token_count.completion': 4,
    'llm.token_count.total': 89,
    'tool.name': 'lookup_breed',
    'tool.parameters': '{"animal":"cat"}',
    'retrieval.documents.0.document.id': 'doc-1',
    'retrieval.documents.0.document.score': 0.92,
    'retrieval.documents.0.document.content': 'Cats are small carnivorous mammals.',
    metadata: '{"customer":"Jane Roe"}',
    'tag.tags': ['vision', 'demo'],
    'session.id': 'sess-42',
    'user.id': 'user-7',
  },
  contentAttributes: [
    'input.value',
    'output.value',
    'llm.input_messages.0.message.role',
    'llm.input_messages.0.message.content',
    'llm.input_messages.1.message.role',
    'llm.input_messages.1.message.contents.0.message_content.type',
    'llm.input_messages.1.message.contents.0.message_content.text',
    'llm.input_messages.1.message.contents.1.message_content.type',
    'llm.input_messages.1.message.contents.1.message_content.image.image.url',
    'llm.output_messages.0.message.role',
    'llm.output_messages.0.message.content',
    'llm.output_messages.0.message.tool_calls.0.tool_call.function.name',
    'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments',
    'tool.parameters',
    'retrieval.documents.0.document.id',
    'retrieval.documents.0.document.score',
    'retrieval.documents.0.document.content',
    'metadata',
  ],
};
