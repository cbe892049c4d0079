/**
 * The table of recognized content attributes, per convention. One table serves every reader: the
 * SDK's content policy removes these attributes when `captureContent` is false, the SDK's media
 * scanner reads the values of the entries marked `scan` for inline files (the spec's "Automatic
 * capture of files" list), and the server's read model shows them only with `includeContent`.
 *
 * What counts as content: text or data that a person or a model produced during the traced work
 * (messages, prompts, completions, reasoning, tool arguments and results, retrieved documents and
 * queries, embeddings, free-form metadata values, exception and error text).
 *
 * What does not: identifiers, names, model settings, token counts and costs, finish reasons, and
 * schemas the developer wrote (tool definitions such as `gen_ai.tool.definitions`,
 * `ai.prompt.tools`, `ai.prompt.toolChoice`, `ai.schema`, `llm.tools.*`, `llm.request.functions.*`):
 * they are fixed at build time, carry no user or model data, and the GenAI conventions do not flag
 * them as sensitive (only as large). Session and user identifiers stay too, so the receipt's
 * `session` and `user` fields survive capture off (`ai.telemetry.metadata.sessionId` and `.userId`
 * are excluded from the `ai.telemetry.metadata.` prefix for that reason).
 *
 * Flattened conventions are matched by prefix, so everything under a message or document prefix
 * goes, roles, finish reasons, document ids and scores included (for example
 * `gen_ai.completion.<n>.finish_reason`, `retrieval.documents.<n>.document.score`).
 * @module
 */

/** The conventions the table covers. */
export type ContentConvention =
  | 'GenAI semantic conventions'
  | 'Vercel AI SDK'
  | 'OpenInference'
  | 'OpenLLMetry'
  | 'Pydantic AI'
  | 'Langfuse'
  | 'OpenTelemetry exceptions';

/** One group of content attributes of a convention. */
export interface ContentAttributeEntry {
  /** The convention that defines these names. */
  readonly convention: ContentConvention;
  /** The document the names come from. */
  readonly source: string;
  /** Exact attribute names. */
  readonly names: readonly string[];
  /** Name prefixes, each ending with `.`; a name matches when it is longer than the prefix. */
  readonly prefixes: readonly string[];
  /** Names under one of `prefixes` that are not content. */
  readonly except?: readonly string[];
  /** Whether the media scanner reads these attributes' values for inline files. */
  readonly scan: boolean;
  /** When set, the scanner reads only the prefixed names ending with one of these suffixes. */
  readonly scanSuffixes?: readonly string[];
}

const GENAI_SPANS =
  'OpenTelemetry semantic conventions for generative AI: gen-ai-spans.md, registry/attributes/gen-ai.md';
const AI_SDK = 'AI SDK Core "Telemetry" (ai-sdk.dev/docs/ai-sdk-core/telemetry), v5 to v7 and @ai-sdk/otel';
const OPENINFERENCE = 'OpenInference spec/semantic_conventions.md (Arize-ai/openinference)';
const OPENLLMETRY = 'OpenLLMetry @traceloop/ai-semantic-conventions SemanticAttributes.ts';
const PYDANTIC_AI =
  'Pydantic AI OpenTelemetry instrumentation (InstrumentationSettings, version 2+), as Logfire shows it';
const LANGFUSE =
  'Langfuse OpenTelemetry attributes (LangfuseOtelSpanAttributes, langfuse.com/docs/opentelemetry)';

/** The table. Order matters only for {@link findContentAttribute}: the first matching entry wins. */
export const CONTENT_ATTRIBUTES: readonly ContentAttributeEntry[] = [
  {
    convention: 'GenAI semantic conventions',
    source: GENAI_SPANS,
    names: [
      'gen_ai.input.messages',
      'gen_ai.output.messages',
      'gen_ai.tool.call.arguments',
      'gen_ai.tool.call.result',
    ],
    prefixes: [],
    scan: true,
  },
  {
    convention: 'GenAI semantic conventions',
    // `gen_ai.prompt` / `gen_ai.completion` are the deprecated `gen_ai.content.prompt` and
    // `gen_ai.content.completion` event attributes; retrieval and evaluation text are model data.
    source: `${GENAI_SPANS}; deprecated attributes in registry/attributes/gen-ai.md`,
    names: [
      'gen_ai.system_instructions',
      'gen_ai.prompt',
      'gen_ai.completion',
      'gen_ai.retrieval.query.text',
      'gen_ai.retrieval.documents',
      'gen_ai.evaluation.explanation',
    ],
    prefixes: [],
    scan: false,
  },
  {
    convention: 'Vercel AI SDK',
    source: AI_SDK,
    names: ['ai.prompt', 'ai.prompt.messages', 'ai.toolCall.args', 'ai.toolCall.result'],
    prefixes: ['ai.telemetry.metadata.'],
    except: ['ai.telemetry.metadata.sessionId', 'ai.telemetry.metadata.userId'],
    scan: true,
  },
  {
    convention: 'Vercel AI SDK',
    // `ai.toolCall.input`/`.output` were the tool span names of some releases; `ai.result.*` are
    // the v3 names of `ai.response.*`.
    source: `${AI_SDK}; older releases' ai.result.* and ai.toolCall.input/output`,
    names: [
      'ai.toolCall.input',
      'ai.toolCall.output',
      'ai.response.text',
      'ai.response.object',
      'ai.response.toolCalls',
      'ai.response.reasoning',
      'ai.response.files',
      'ai.value',
      'ai.values',
      'ai.embedding',
      'ai.embeddings',
      'ai.documents',
      'ai.ranking',
      'ai.result.text',
      'ai.result.object',
      'ai.result.toolCalls',
    ],
    prefixes: [],
    scan: false,
  },
  {
    convention: 'OpenInference',
    source: OPENINFERENCE,
    names: ['input.value', 'output.value', 'tool.parameters', 'metadata'],
    prefixes: ['metadata.'],
    scan: true,
  },
  {
    convention: 'OpenInference',
    // Flattened messages: `llm.input_messages.<n>.message.content`, `.message.role`,
    // `.message.contents.<m>.message_content.image.image.url`, `.message.tool_calls.<m>.…`.
    source: OPENINFERENCE,
    names: [],
    prefixes: ['llm.input_messages.', 'llm.output_messages.'],
    scan: true,
    scanSuffixes: ['.message_content.image.image.url'],
  },
  {
    convention: 'OpenInference',
    source: OPENINFERENCE,
    names: [
      'llm.prompts',
      'llm.function_call',
      'llm.prompt_template.template',
      'llm.prompt_template.variables',
      'reranker.query',
    ],
    prefixes: [
      'llm.choices.',
      'retrieval.documents.',
      'reranker.input_documents.',
      'reranker.output_documents.',
      'embedding.embeddings.',
    ],
    scan: false,
  },
  {
    convention: 'OpenLLMetry',
    // Indexed messages: `gen_ai.prompt.<n>.content` / `.role`, `gen_ai.completion.<n>.content`,
    // `.tool_calls.<m>.arguments`. `gen_ai.prompt.name` is a GenAI attribute (a prompt's name).
    source: OPENLLMETRY,
    names: [],
    prefixes: ['gen_ai.prompt.', 'gen_ai.completion.'],
    except: ['gen_ai.prompt.name'],
    scan: true,
    scanSuffixes: ['.content'],
  },
  {
    convention: 'OpenLLMetry',
    source: OPENLLMETRY,
    names: ['traceloop.entity.input', 'traceloop.entity.output'],
    prefixes: [],
    scan: true,
  },
  {
    convention: 'OpenLLMetry',
    // `llm.prompts.<n>.*` / `llm.completions.<n>.*`: the names before the `gen_ai.*` rename;
    // `db.query.*`: vector database query and result events.
    source: `${OPENLLMETRY}; trace/SemanticAttributes.ts (older names)`,
    names: [
      'db.query.result.document',
      'db.query.result.metadata',
      'db.query.result.vector',
      'db.query.embeddings.vector',
    ],
    prefixes: ['llm.prompts.', 'llm.completions.'],
    scan: false,
  },
  {
    convention: 'Pydantic AI',
    // The "running tool" span of Pydantic AI's OpenTelemetry instrumentation (Logfire).
    source: PYDANTIC_AI,
    names: ['tool_arguments', 'tool_response'],
    prefixes: [],
    scan: true,
  },
  {
    convention: 'Pydantic AI',
    // The "agent run" span.
    source: PYDANTIC_AI,
    names: ['pydantic_ai.all_messages', 'all_messages_events', 'final_result'],
    prefixes: [],
    scan: false,
  },
  {
    convention: 'Langfuse',
    source: LANGFUSE,
    names: [
      'langfuse.observation.input',
      'langfuse.observation.output',
      'langfuse.observation.metadata',
      'langfuse.trace.input',
      'langfuse.trace.output',
      'langfuse.trace.metadata',
    ],
    prefixes: ['langfuse.observation.metadata.', 'langfuse.trace.metadata.'],
    scan: true,
  },
  {
    convention: 'Langfuse',
    // Free text, Langfuse's counterpart of the span status message.
    source: LANGFUSE,
    names: ['langfuse.observation.status_message'],
    prefixes: [],
    scan: false,
  },
  {
    convention: 'OpenTelemetry exceptions',
    source: 'OpenTelemetry semantic conventions: exceptions (exception.*) and error.message',
    names: ['exception.message', 'exception.stacktrace', 'error.message'],
    prefixes: [],
    scan: false,
  },
];

const exactNames = new Set(CONTENT_ATTRIBUTES.flatMap((entry) => entry.names));
const exceptNames = new Set(CONTENT_ATTRIBUTES.flatMap((entry) => entry.except ?? []));
const prefixes = CONTENT_ATTRIBUTES.flatMap((entry) => entry.prefixes);

/** True when `name` is a recognized content attribute of any convention in the table. */
export function isContentAttribute(name: string): boolean {
  if (exactNames.has(name)) return true;
  if (exceptNames.has(name)) return false;
  for (const prefix of prefixes) {
    if (name.length > prefix.length && name.startsWith(prefix)) return true;
  }
  return false;
}

/** The table entry that makes `name` a content attribute, or `undefined` when none does. */
export function findContentAttribute(name: string): ContentAttributeEntry | undefined {
  if (!isContentAttribute(name)) return undefined;
  return CONTENT_ATTRIBUTES.find(
    (entry) =>
      entry.names.includes(name) ||
      entry.prefixes.some((prefix) => name.length > prefix.length && name.startsWith(prefix)),
  );
}

/** True when the media scanner should read the value of attribute `name` for inline files. */
export function isScannedAttribute(name: string): boolean {
  const entry = findContentAttribute(name);
  if (entry === undefined || !entry.scan) return false;
  if (entry.scanSuffixes === undefined || entry.names.includes(name)) return true;
  return entry.scanSuffixes.some((suffix) => name.endsWith(suffix));
}
