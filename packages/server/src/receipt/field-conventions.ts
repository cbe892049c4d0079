/**
 * Which attributes make a normalized receipt field present, across the conventions the service
 * reads: OpenTelemetry GenAI semantic conventions, the Vercel AI SDK (`ai.*`), OpenInference,
 * OpenLLMetry (Traceloop) and Langfuse. The README renders this table for users.
 *
 * A field is present when any span or log record of the trace carries one of its attribute
 * names (or a name under one of its prefixes). Values are not inspected: a captured `""` or
 * `null` is present. `error` is also present for a span whose status is ERROR or which holds an
 * `exception` event.
 * @module
 */

/** The normalized receipt fields, in their bit order. */
export const RECEIPT_FIELDS = [
  'input',
  'output',
  'model',
  'usage',
  'session',
  'user',
  'error',
  'tool',
] as const;

/** A normalized receipt field name. */
export type ReceiptField = (typeof RECEIPT_FIELDS)[number];

/** Attribute names and prefixes per field, per convention. */
export interface FieldConvention {
  convention: string;
  /** Exact attribute names. */
  names: readonly string[];
  /** Attribute name prefixes; a prefix ends with `.`. */
  prefixes?: readonly string[];
}

/** The table: for each normalized field, the conventions' attributes that make it present. */
export const FIELD_CONVENTIONS: Readonly<Record<ReceiptField, readonly FieldConvention[]>> = {
  input: [
    {
      convention: 'GenAI semantic conventions',
      names: [
        'gen_ai.input.messages',
        'gen_ai.system_instructions',
        'gen_ai.tool.call.arguments',
        'gen_ai.prompt',
      ],
    },
    {
      convention: 'Vercel AI SDK',
      names: ['ai.prompt', 'ai.prompt.messages', 'ai.toolCall.args', 'ai.toolCall.input'],
    },
    { convention: 'OpenInference', names: ['input.value'], prefixes: ['llm.input_messages.'] },
    {
      convention: 'OpenLLMetry',
      names: ['traceloop.entity.input', 'tool.parameters', 'tool_arguments'],
      prefixes: ['gen_ai.prompt.', 'llm.prompts.'],
    },
    { convention: 'Langfuse', names: ['langfuse.observation.input', 'langfuse.trace.input'] },
  ],
  output: [
    {
      convention: 'GenAI semantic conventions',
      names: ['gen_ai.output.messages', 'gen_ai.tool.call.result', 'gen_ai.completion'],
    },
    {
      convention: 'Vercel AI SDK',
      names: [
        'ai.response.text',
        'ai.response.object',
        'ai.response.toolCalls',
        'ai.toolCall.result',
        'ai.toolCall.output',
      ],
    },
    { convention: 'OpenInference', names: ['output.value'], prefixes: ['llm.output_messages.'] },
    {
      convention: 'OpenLLMetry',
      names: ['traceloop.entity.output', 'tool_response'],
      prefixes: ['gen_ai.completion.', 'llm.completions.'],
    },
    { convention: 'Langfuse', names: ['langfuse.observation.output', 'langfuse.trace.output'] },
  ],
  model: [
    { convention: 'GenAI semantic conventions', names: ['gen_ai.request.model', 'gen_ai.response.model'] },
    { convention: 'Vercel AI SDK', names: ['ai.model.id', 'ai.response.model'] },
    { convention: 'OpenInference', names: ['llm.model_name'] },
    { convention: 'OpenLLMetry', names: ['llm.request.model', 'llm.response.model'] },
    { convention: 'Langfuse', names: ['langfuse.observation.model.name'] },
  ],
  usage: [
    {
      convention: 'GenAI semantic conventions',
      names: [
        'gen_ai.usage.input_tokens',
        'gen_ai.usage.output_tokens',
        'gen_ai.usage.cache_read.input_tokens',
        'gen_ai.usage.cache_creation.input_tokens',
      ],
    },
    {
      convention: 'Vercel AI SDK',
      names: [
        'ai.usage.promptTokens',
        'ai.usage.completionTokens',
        'ai.usage.inputTokens',
        'ai.usage.outputTokens',
        'ai.usage.totalTokens',
      ],
    },
    {
      convention: 'OpenInference',
      names: ['llm.token_count.prompt', 'llm.token_count.completion', 'llm.token_count.total'],
    },
    {
      convention: 'OpenLLMetry',
      names: ['gen_ai.usage.prompt_tokens', 'gen_ai.usage.completion_tokens', 'llm.usage.total_tokens'],
    },
    {
      convention: 'Langfuse',
      names: ['langfuse.observation.usage_details', 'langfuse.observation.cost_details'],
    },
  ],
  session: [
    { convention: 'GenAI semantic conventions', names: ['gen_ai.conversation.id'] },
    { convention: 'Vercel AI SDK', names: ['ai.telemetry.metadata.sessionId'] },
    { convention: 'OpenInference', names: ['session.id'] },
    { convention: 'OpenLLMetry', names: ['traceloop.association.properties.session_id'] },
    { convention: 'Langfuse', names: ['langfuse.session.id'] },
  ],
  user: [
    { convention: 'OpenTelemetry semantic conventions', names: ['user.id', 'enduser.id'] },
    { convention: 'Vercel AI SDK', names: ['ai.telemetry.metadata.userId'] },
    { convention: 'OpenLLMetry', names: ['traceloop.association.properties.user_id'] },
    { convention: 'Langfuse', names: ['langfuse.user.id'] },
  ],
  error: [
    {
      convention: 'OpenTelemetry semantic conventions',
      names: ['error.type', 'exception.type', 'exception.message'],
    },
  ],
  tool: [
    { convention: 'GenAI semantic conventions', names: ['gen_ai.tool.name', 'gen_ai.tool.call.id'] },
    { convention: 'Vercel AI SDK', names: ['ai.toolCall.name', 'ai.toolCall.id'] },
    { convention: 'OpenInference', names: ['tool.name'] },
  ],
};

/** The bit of a field in a record's field mask. */
export function fieldBit(field: ReceiptField): number {
  return 1 << RECEIPT_FIELDS.indexOf(field);
}
