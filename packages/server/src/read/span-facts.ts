/**
 * What the read model shows of a span without its attribute values: the model, the tokens used,
 * the session and user, and the error type, read from the attributes of every convention the
 * service reads (GenAI semantic conventions, the Vercel AI SDK, OpenInference, OpenLLMetry,
 * Langfuse). The names come from the same table as the receipt fields (`FIELD_CONVENTIONS`),
 * ordered here by which value wins when a span carries several.
 *
 * Tokens are counted on model-call spans only: a span's own `gen_ai.usage.*` (GenAI, and the AI
 * SDK's `doGenerate`/`doStream` spans), `llm.token_count.*` (OpenInference), or Langfuse's usage
 * details. The AI SDK's `ai.usage.*` are not read: its wrapper spans (`ai.generateText`) repeat
 * the totals of the model calls below them, and summing both would count every token twice.
 * @module
 */
import type { AnyValue, KeyValue, SpanEventRecord } from '../otlp/model.js';
import { attributeMap, countOf, stringOf } from './attribute-values.js';

/** The facts of one span. */
export interface SpanFacts {
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
  sessionIds: string[];
  userIds: string[];
  /** `error.type`, else the type of an `exception` event; `undefined` when neither is recorded. */
  errorType?: string;
}

/** Model names, the response's first (it says which model answered). */
export const MODEL_ATTRIBUTES = [
  'gen_ai.response.model',
  'ai.response.model',
  'llm.response.model',
  'gen_ai.request.model',
  'ai.model.id',
  'llm.model_name',
  'llm.request.model',
  'langfuse.observation.model.name',
] as const;

/** Session IDs. */
export const SESSION_ATTRIBUTES = [
  'gen_ai.conversation.id',
  'session.id',
  'ai.telemetry.metadata.sessionId',
  'traceloop.association.properties.session_id',
  'langfuse.session.id',
] as const;

/** User IDs. */
export const USER_ATTRIBUTES = [
  'user.id',
  'enduser.id',
  'ai.telemetry.metadata.userId',
  'traceloop.association.properties.user_id',
  'langfuse.user.id',
] as const;

/** Input and output token counts, per convention, in order of preference. */
const TOKEN_ATTRIBUTES: readonly (readonly [input: string, output: string])[] = [
  ['gen_ai.usage.input_tokens', 'gen_ai.usage.output_tokens'],
  ['llm.token_count.prompt', 'llm.token_count.completion'],
  // OpenLLMetry before the GenAI conventions renamed them.
  ['gen_ai.usage.prompt_tokens', 'gen_ai.usage.completion_tokens'],
];

/** Langfuse's usage details: a JSON object with `input` and `output` counts. */
const LANGFUSE_USAGE = 'langfuse.observation.usage_details';

function firstString(map: Map<string, AnyValue>, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = stringOf(map.get(name));
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

function allStrings(map: Map<string, AnyValue>, names: readonly string[]): string[] {
  const values = new Set<string>();
  for (const name of names) {
    const value = stringOf(map.get(name));
    if (value !== undefined && value !== '') values.add(value);
  }
  return [...values];
}

function tokens(map: Map<string, AnyValue>): { inputTokens?: number; outputTokens?: number } {
  for (const [inputName, outputName] of TOKEN_ATTRIBUTES) {
    const input = countOf(map.get(inputName));
    const output = countOf(map.get(outputName));
    if (input !== undefined || output !== undefined) {
      return {
        ...(input === undefined ? {} : { inputTokens: input }),
        ...(output === undefined ? {} : { outputTokens: output }),
      };
    }
  }
  const usage = stringOf(map.get(LANGFUSE_USAGE));
  if (usage !== undefined) {
    try {
      const parsed: unknown = JSON.parse(usage);
      if (parsed !== null && typeof parsed === 'object') {
        const { input, output } = parsed as { input?: unknown; output?: unknown };
        const count = (n: unknown) =>
          typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
        const inputTokens = count(input);
        const outputTokens = count(output);
        return {
          ...(inputTokens === undefined ? {} : { inputTokens }),
          ...(outputTokens === undefined ? {} : { outputTokens }),
        };
      }
    } catch {
      // Not JSON: no usage to read (the attribute is shown as it is).
    }
  }
  return {};
}

/** The facts of a span, from its attributes and events. */
export function spanFacts(
  attributes: readonly KeyValue[],
  events: readonly SpanEventRecord[] = [],
): SpanFacts {
  const map = attributeMap(attributes);
  const model = firstString(map, MODEL_ATTRIBUTES);
  let errorType = stringOf(map.get('error.type'));
  if (errorType === undefined) {
    const exception = events.find((event) => event.name === 'exception');
    if (exception !== undefined)
      errorType = stringOf(attributeMap(exception.attributes).get('exception.type'));
  }
  return {
    ...(model === undefined ? {} : { model }),
    ...tokens(map),
    sessionIds: allStrings(map, SESSION_ATTRIBUTES),
    userIds: allStrings(map, USER_ATTRIBUTES),
    ...(errorType === undefined || errorType === '' ? {} : { errorType }),
  };
}
