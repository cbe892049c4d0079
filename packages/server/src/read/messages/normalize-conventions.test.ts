import { describe, expect, it } from 'vitest';
import { CAT_PNG, DOT_PNG } from '../../../../../fixtures/messages/media.js';
import { attrs, filesOf, shape } from './__fixtures__/records.js';
import { normalizeSpanMessages } from './normalize-span-messages.js';

const dotUrl = `data:image/png;base64,${DOT_PNG.base64}`;

describe('one source per direction', () => {
  it('reads input.value in a provider format before the flattened messages, whose files go below', () => {
    const result = normalizeSpanMessages(
      attrs({
        'input.value': {
          model: 'gpt-4o',
          messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: dotUrl } }] }],
        },
        'llm.input_messages.0.message.role': 'user',
        'llm.input_messages.0.message.contents.0.message_content.type': 'image',
        'llm.input_messages.0.message.contents.0.message_content.image.image.url': dotUrl,
      }),
      [],
    );
    expect(shape(result)).toEqual(['user: file']);
    expect(result.readAttributes).toEqual(['input.value']);
    expect(result.belowMessages.map((p) => p.at.attribute)).toEqual([
      'llm.input_messages.0.message.contents.0.message_content.image.image.url',
    ]);
  });

  it('prefers a source in a message format to a value read as it is, and reads a value as it is when nothing else is there', () => {
    const tool = normalizeSpanMessages(
      attrs({
        'input.value': { city: 'Paris' },
        'gen_ai.tool.name': 'get_weather',
        'gen_ai.tool.call.arguments': { city: 'Paris' },
      }),
      [],
    );
    expect(shape(tool)).toEqual(['assistant: tool_call']);
    expect(tool.readAttributes).toEqual(['gen_ai.tool.call.arguments']);

    const plain = normalizeSpanMessages(
      attrs({ 'input.value': { question: 'Weather?', photo: dotUrl }, 'output.value': 'Sunny.' }),
      [],
    );
    expect(plain.messages).toMatchObject([
      {
        direction: 'input',
        role: 'input',
        parts: [{ type: 'other', value: { question: 'Weather?', photo: dotUrl } }, { type: 'file' }],
      },
      { direction: 'output', role: 'output', parts: [{ type: 'text', text: 'Sunny.' }] },
    ]);
  });
});

describe('GenAI semantic conventions', () => {
  it('reads system instructions, input and output messages, with tool calls and their responses', () => {
    const result = normalizeSpanMessages(
      attrs({
        'gen_ai.system_instructions': [{ type: 'text', content: 'Be brief.' }],
        'gen_ai.input.messages': [
          { role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] },
          {
            role: 'assistant',
            parts: [{ type: 'tool_call', id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }],
          },
          { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: 'sunny' }] },
        ],
        'gen_ai.output.messages': [
          {
            role: 'assistant',
            parts: [
              { type: 'reasoning', content: 'It said sunny.' },
              { type: 'text', content: 'Sunny.' },
            ],
            finish_reason: 'stop',
          },
        ],
      }),
      [],
    );
    expect(shape(result)).toEqual([
      'system: text',
      'user: text',
      'assistant: tool_call',
      'tool: tool_result(text)',
      'assistant: reasoning text',
    ]);
    expect(result.messages[2]!.parts[0]).toMatchObject({
      id: 'c1',
      name: 'get_weather',
      arguments: { city: 'Paris' },
    });
    expect(result.messages[4]).toMatchObject({ direction: 'output', finishReason: 'stop' });
    expect(result.readAttributes).toEqual([
      'gen_ai.system_instructions',
      'gen_ai.input.messages',
      'gen_ai.output.messages',
    ]);
  });

  it('reads an execute_tool span as the call and its result, with the tool name and call ID', () => {
    const result = normalizeSpanMessages(
      attrs({
        'gen_ai.tool.name': 'render_chart',
        'gen_ai.tool.call.id': 'call_9',
        'gen_ai.tool.call.arguments': { kind: 'dot' },
        'gen_ai.tool.call.result': { content: [{ type: 'text', text: 'failed' }], isError: true },
      }),
      [],
    );
    expect(result.messages).toMatchObject([
      {
        role: 'assistant',
        parts: [{ type: 'tool_call', id: 'call_9', name: 'render_chart', arguments: { kind: 'dot' } }],
      },
      {
        role: 'tool',
        parts: [
          {
            type: 'tool_result',
            id: 'call_9',
            name: 'render_chart',
            isError: true,
            parts: [{ type: 'text', text: 'failed' }],
          },
        ],
      },
    ]);
  });
});

describe('Vercel AI SDK', () => {
  it('reads the response as one assistant message: reasoning, text, tool calls, files', () => {
    const result = normalizeSpanMessages(
      attrs({
        'ai.response.reasoning': 'Look it up.',
        'ai.response.text': 'Checking.',
        'ai.response.toolCalls': [{ toolCallId: 't1', toolName: 'get_weather', input: { city: 'Paris' } }],
        'ai.response.files': [{ type: 'file', mediaType: 'image/png', data: DOT_PNG.base64 }],
      }),
      [],
    );
    expect(shape(result)).toEqual(['assistant: reasoning text tool_call file']);
    expect(filesOf(result)).toMatchObject([
      { key: 'ai.response.files#/0', sha256: DOT_PNG.sha256, form: 'inline' },
    ]);
  });

  it('reads ai.prompt with a string prompt and system, and a tool call span', () => {
    expect(
      shape(normalizeSpanMessages(attrs({ 'ai.prompt': { system: 'Be brief.', prompt: 'Hi' } }), [])),
    ).toEqual(['system: text', 'user: text']);
    const tool = normalizeSpanMessages(
      attrs({
        'ai.toolCall.name': 'get_weather',
        'ai.toolCall.id': 't1',
        'ai.toolCall.args': { city: 'Paris' },
        'ai.toolCall.result': { celsius: 24 },
      }),
      [],
    );
    expect(tool.messages).toMatchObject([
      {
        role: 'assistant',
        convention: 'Vercel AI SDK',
        parts: [{ type: 'tool_call', id: 't1', name: 'get_weather' }],
      },
      {
        role: 'tool',
        parts: [{ type: 'tool_result', id: 't1', parts: [{ type: 'other', value: { celsius: 24 } }] }],
      },
    ]);
  });

  it('reads tool results whose output holds media (AI SDK content output)', () => {
    const messages = [
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 't1',
            toolName: 'shot',
            output: {
              type: 'content',
              value: [{ type: 'media', data: DOT_PNG.base64, mediaType: 'image/png' }],
            },
          },
        ],
      },
    ];
    const result = normalizeSpanMessages(attrs({ 'ai.prompt.messages': messages }), []);
    expect(shape(result)).toEqual(['tool: tool_result(file)']);
    expect(filesOf(result)[0]?.key).toBe('ai.prompt.messages#/0/content/0/output/value/0');
  });
});

describe('OpenInference flattened messages', () => {
  it('reads role, content, contents and tool calls per message index, in index order', () => {
    const result = normalizeSpanMessages(
      attrs({
        'llm.output_messages.0.message.role': 'assistant',
        'llm.output_messages.0.message.tool_calls.0.tool_call.id': 'call_1',
        'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'get_weather',
        'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': '{"city":"Paris"}',
        'llm.input_messages.10.message.role': 'user',
        'llm.input_messages.10.message.content': 'second',
        'llm.input_messages.2.message.role': 'system',
        'llm.input_messages.2.message.contents.0.message_content.type': 'text',
        'llm.input_messages.2.message.contents.0.message_content.text': 'first',
      }),
      [],
    );
    expect(result.messages).toMatchObject([
      {
        direction: 'input',
        role: 'system',
        parts: [{ type: 'text', text: 'first' }],
        at: { attribute: 'llm.input_messages.2.message', pointer: '' },
      },
      { direction: 'input', role: 'user', parts: [{ type: 'text', text: 'second' }] },
      {
        direction: 'output',
        role: 'assistant',
        parts: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
      },
    ]);
    expect(result.readAttributes).toHaveLength(9);
  });
});

describe('OpenLLMetry indexed messages', () => {
  it('reads prompts and completions with tool calls, tool call IDs and finish reasons', () => {
    const result = normalizeSpanMessages(
      attrs({
        'gen_ai.prompt.0.role': 'user',
        'gen_ai.prompt.0.content': 'Weather?',
        'gen_ai.prompt.1.role': 'tool',
        'gen_ai.prompt.1.tool_call_id': 'c1',
        'gen_ai.prompt.1.content': 'sunny',
        'gen_ai.prompt.name': 'weather-prompt',
        'gen_ai.completion.0.role': 'assistant',
        'gen_ai.completion.0.finish_reason': 'tool_calls',
        'gen_ai.completion.0.tool_calls.0.id': 'c2',
        'gen_ai.completion.0.tool_calls.0.name': 'get_weather',
        'gen_ai.completion.0.tool_calls.0.arguments': '{"city":"Paris"}',
      }),
      [],
    );
    expect(shape(result)).toEqual(['user: text', 'tool: tool_result(text)', 'assistant: tool_call']);
    expect(result.messages[2]).toMatchObject({
      finishReason: 'tool_calls',
      at: { attribute: 'gen_ai.completion.0', pointer: '' },
    });
    expect(result.readAttributes).not.toContain('gen_ai.prompt.name');
  });

  it('reads content that is not the JSON of a parts list as text', () => {
    const content = JSON.stringify({ note: dotUrl });
    const result = normalizeSpanMessages(
      attrs({ 'gen_ai.prompt.0.role': 'user', 'gen_ai.prompt.0.content': content }),
      [],
    );
    expect(result.messages[0]!.parts[0]).toEqual({
      type: 'text',
      text: content,
      at: { attribute: 'gen_ai.prompt.0.content', pointer: '' },
    });
  });
});

describe('provider requests and responses in input.value / output.value', () => {
  const read = (input: unknown, output: unknown) =>
    shape(normalizeSpanMessages(attrs({ 'input.value': input, 'output.value': output }), []));

  it('reads OpenAI chat responses with tool calls, and Responses API inputs and outputs', () => {
    expect(
      read(
        {
          model: 'gpt-4o',
          messages: [
            { role: 'developer', content: 'Be brief.' },
            { role: 'user', content: 'Hi' },
          ],
        },
        {
          choices: [
            {
              finish_reason: 'tool_calls',
              message: {
                role: 'assistant',
                content: null,
                tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
              },
            },
          ],
        },
      ),
    ).toEqual(['developer: text', 'user: text', 'assistant: tool_call']);
    expect(
      read(
        {
          model: 'gpt-5',
          input: [
            { role: 'user', content: 'Hi' },
            { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
            { type: 'function_call_output', call_id: 'c', output: 'ok' },
          ],
        },
        {
          object: 'response',
          output: [
            { type: 'reasoning', summary: [{ type: 'summary_text', text: 'thinking' }] },
            { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] },
          ],
        },
      ),
    ).toEqual([
      'user: text',
      'assistant: tool_call',
      'tool: tool_result(text)',
      'assistant: reasoning',
      'assistant: text',
    ]);
  });

  it('reads Anthropic, Gemini and Bedrock responses, and Gemini system instructions in config', () => {
    expect(
      read(
        { model: 'gemini-2.5-flash', contents: 'Hi', config: { systemInstruction: 'Be brief.' } },
        {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hm' },
            { type: 'text', text: 'Hello' },
          ],
          stop_reason: 'end_turn',
        },
      ),
    ).toEqual(['system: text', 'user: text', 'assistant: reasoning text']);
    expect(
      read(
        {
          contents: [
            { parts: [{ text: 'Hi' }, { functionResponse: { name: 'f', response: { ok: true } } }] },
          ],
        },
        {
          output: {
            message: {
              role: 'assistant',
              content: [{ text: 'Hello' }, { toolUse: { toolUseId: 't', name: 'f', input: {} } }],
            },
          },
          stopReason: 'tool_use',
        },
      ),
    ).toEqual(['user: text tool_result(other)', 'assistant: text tool_call']);
  });

  it('reads an MCP result as a tool message, and CAT_PNG in a LangChain data block as a file', () => {
    expect(
      read(
        {
          messages: [
            {
              role: 'user',
              content: [
                { type: 'image', source_type: 'base64', data: CAT_PNG.base64, mime_type: 'image/png' },
              ],
            },
          ],
        },
        { content: [{ type: 'text', text: 'ok' }] },
      ),
    ).toEqual(['user: file', 'tool: tool_result(text)']);
  });
});

describe('structured attribute values', () => {
  it('reads a kvlist/array AnyValue attribute as the JSON it is', () => {
    const result = normalizeSpanMessages(
      [
        {
          key: 'gen_ai.input.messages',
          value: {
            arrayValue: {
              values: [
                {
                  kvlistValue: {
                    values: [
                      { key: 'role', value: { stringValue: 'user' } },
                      {
                        key: 'parts',
                        value: {
                          arrayValue: {
                            values: [
                              {
                                kvlistValue: {
                                  values: [
                                    { key: 'type', value: { stringValue: 'blob' } },
                                    { key: 'mime_type', value: { stringValue: 'image/png' } },
                                    { key: 'content', value: { bytesValue: DOT_PNG.base64 } },
                                  ],
                                },
                              },
                            ],
                          },
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        },
      ],
      [],
    );
    expect(shape(result)).toEqual(['user: file']);
    expect(filesOf(result)).toMatchObject([
      { key: 'gen_ai.input.messages#/0/parts/0', sha256: DOT_PNG.sha256, contentType: 'image/png' },
    ]);
  });
});
