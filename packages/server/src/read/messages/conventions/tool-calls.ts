/**
 * The attributes of a tool execution span: its arguments (the input, read as the assistant's
 * tool call) and its result (the output, read as the tool's result: an MCP `CallToolResult`, an AI
 * SDK tool output, text). GenAI `execute_tool` spans (`gen_ai.tool.call.arguments` / `.result`,
 * `gen_ai.tool.name`, `gen_ai.tool.call.id`), the AI SDK's `ai.toolCall` span (`ai.toolCall.args`
 * / `.result`, older `.input` / `.output`), OpenInference's tool span (`tool.parameters`,
 * `tool.name`), Pydantic AI's "running tool" span (`tool_arguments` / `tool_response`).
 * @module
 */

import type { MessagePart } from '../message-types.js';
import { toolCallPart, toolResultPart } from '../parts/make-part.js';
import type { RecordValues } from '../record-values.js';
import { rootSite } from '../value/site.js';
import type { MessageSource } from './message-source.js';
import { readValue } from './read-attribute.js';

/** Where a convention records a tool call. */
interface ToolCallNames {
  convention: string;
  /** The arguments (input) or result (output) attributes, the first present one is read. */
  values: readonly string[];
  /** The tool's name. */
  name: readonly string[];
  /** The call's ID. */
  id: readonly string[];
}

function first(record: RecordValues, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = record.string(name);
    if (value !== undefined) return value;
  }
  return undefined;
}

function argumentsSource(names: ToolCallNames): MessageSource {
  return {
    direction: 'input',
    read(record, reader) {
      const attribute = names.values.find((name) => record.has(name));
      const value = attribute === undefined ? undefined : readValue(record, attribute);
      if (attribute === undefined || value === undefined) return undefined;
      const site = rootSite(attribute);
      const args = value.parsed ? value.value : value.text;
      const parts: MessagePart[] = [
        toolCallPart(first(record, names.id), first(record, names.name) ?? '', args, site),
        ...reader.files(args, site),
      ];
      return {
        tier: 'messages',
        messages: [
          {
            direction: 'input',
            role: 'assistant',
            parts,
            at: { attribute, pointer: '' },
            convention: names.convention,
          },
        ],
        attributes: [attribute],
      };
    },
  };
}

function resultSource(names: ToolCallNames): MessageSource {
  return {
    direction: 'output',
    read(record, reader) {
      const attribute = names.values.find((name) => record.has(name));
      const value = attribute === undefined ? undefined : readValue(record, attribute);
      if (attribute === undefined || value === undefined) return undefined;
      const site = rootSite(attribute);
      const output = reader.toolOutput(value.parsed ? value.value : value.text, site);
      const part = toolResultPart(
        { id: first(record, names.id), name: first(record, names.name), ...output },
        site,
      );
      return {
        tier: 'messages',
        messages: [
          {
            direction: 'output',
            role: 'tool',
            parts: [part],
            at: { attribute, pointer: '' },
            convention: names.convention,
          },
        ],
        attributes: [attribute],
      };
    },
  };
}

const GENAI = {
  convention: 'GenAI semantic conventions',
  name: ['gen_ai.tool.name'],
  id: ['gen_ai.tool.call.id'],
};
const AI_SDK = { convention: 'Vercel AI SDK', name: ['ai.toolCall.name'], id: ['ai.toolCall.id'] };
const OPENINFERENCE = { convention: 'OpenInference', name: ['tool.name'], id: ['tool.id', 'tool_call.id'] };
const PYDANTIC_AI = {
  convention: 'Pydantic AI',
  name: ['gen_ai.tool.name', 'tool_name'],
  id: ['gen_ai.tool.call.id'],
};

/** Tool call arguments, per convention, in rank order. */
export const TOOL_ARGUMENT_SOURCES: readonly MessageSource[] = [
  argumentsSource({ ...GENAI, values: ['gen_ai.tool.call.arguments'] }),
  argumentsSource({ ...AI_SDK, values: ['ai.toolCall.args', 'ai.toolCall.input'] }),
  argumentsSource({ ...OPENINFERENCE, values: ['tool.parameters'] }),
  argumentsSource({ ...PYDANTIC_AI, values: ['tool_arguments'] }),
];

/** Tool results, per convention, in rank order. */
export const TOOL_RESULT_SOURCES: readonly MessageSource[] = [
  resultSource({ ...GENAI, values: ['gen_ai.tool.call.result'] }),
  resultSource({ ...AI_SDK, values: ['ai.toolCall.result', 'ai.toolCall.output'] }),
  resultSource({ ...PYDANTIC_AI, values: ['tool_response'] }),
];
