/**
 * Pydantic AI (Logfire instrumentation): a "running tool" span with an "agent run" span's
 * attributes merged in, as Pydantic AI's OpenTelemetry instrumentation (InstrumentationSettings,
 * version 2 and later) records them and Logfire shows them: `tool_arguments`, `tool_response`,
 * `pydantic_ai.all_messages` (GenAI parts format), `final_result`.
 * @module
 */

import type { ConventionFixture } from './convention-fixture.js';

/** A Pydantic AI tool span. */
export const pydanticAiFixture: ConventionFixture = {
  convention: 'Pydantic AI',
  source: 'pydantic/pydantic-ai OpenTelemetry instrumentation (InstrumentationSettings, version 2+)',
  spanName: 'running tool',
  attributes: {
    'gen_ai.tool.name': 'my_tool',
    'gen_ai.tool.call.id': 'pyd_ai_tool_call_id__my_tool',
    tool_arguments: '{"x":0}',
    tool_response: '"result for x=0"',
    'logfire.msg': 'running tool: my_tool',
    'gen_ai.agent.name': 'agent',
    'pydantic_ai.all_messages':
      '[{"role":"user","parts":[{"type":"text","content":"hello"}]},{"role":"assistant","parts":[{"type":"text","content":"success"}]}]',
    final_result: 'success',
    'gen_ai.usage.input_tokens': 51,
    'gen_ai.usage.output_tokens': 1,
  },
  contentAttributes: ['tool_arguments', 'tool_response', 'pydantic_ai.all_messages', 'final_result'],
};
