/**
 * GenAI semantic conventions: a `chat` inference span with `execute_tool` attributes merged in.
 * Shapes from open-telemetry/semantic-conventions docs/gen-ai/gen-ai-spans.md and the input,
 * output and system-instructions JSON schemas (gen-ai-input-messages.json and siblings), v1.37+.
 * @module
 */

import type { ConventionFixture } from './convention-fixture.js';

/** A GenAI semantic-conventions inference span. */
export const genAiSemconvFixture: ConventionFixture = {
  convention: 'GenAI semantic conventions',
  source: 'open-telemetry/semantic-conventions docs/gen-ai/gen-ai-spans.md (v1.37+)',
  spanName: 'chat gpt-4o',
  attributes: {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': 'openai',
    'gen_ai.request.model': 'gpt-4o',
    'gen_ai.request.temperature': 0.2,
    'gen_ai.response.model': 'gpt-4o-2024-08-06',
    'gen_ai.response.id': 'chatcmpl-9J3uIL87gldCFtiIbyaOvTeYBRA3l',
    'gen_ai.response.finish_reasons': ['stop'],
    'gen_ai.usage.input_tokens': 97,
    'gen_ai.usage.output_tokens': 52,
    'gen_ai.conversation.id': 'conv_5j66UpCpwteGg4YSxUnt7lPY',
    'gen_ai.prompt.name': 'weather-assistant',
    'gen_ai.tool.definitions':
      '[{"type":"function","name":"get_weather","description":"Get the weather","parameters":{"type":"object","properties":{"location":{"type":"string"}},"required":["location"]}}]',
    'gen_ai.system_instructions': '[{"type":"text","content":"You are a helpful weather assistant."}]',
    'gen_ai.input.messages':
      '[{"role":"user","parts":[{"type":"text","content":"Weather in Paris?"},{"type":"blob","modality":"image","mime_type":"image/png","content":"iVBORw0KGgo="}]}]',
    'gen_ai.output.messages':
      '[{"role":"assistant","parts":[{"type":"tool_call","id":"call_VSPygqKTWdrhaFErNvMV18Yl","name":"get_weather","arguments":{"location":"Paris"}}],"finish_reason":"tool_call"}]',
    'gen_ai.tool.name': 'get_weather',
    'gen_ai.tool.call.id': 'call_VSPygqKTWdrhaFErNvMV18Yl',
    'gen_ai.tool.call.arguments': '{"location":"Paris"}',
    'gen_ai.tool.call.result': '{"temperature":"57°F","conditions":"rainy"}',
    'server.address': 'api.openai.com',
    'app.tenant': 'acme',
  },
  contentAttributes: [
    'gen_ai.system_instructions',
    'gen_ai.input.messages',
    'gen_ai.output.messages',
    'gen_ai.tool.call.arguments',
    'gen_ai.tool.call.result',
  ],
};
