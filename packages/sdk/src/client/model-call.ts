/**
 * Options and handle of `svc.model(...)`: a model-call span in the GenAI semantic-convention form.
 * @module
 */
import type { Attributes, Context } from '@opentelemetry/api';
import type { SpanHandle } from './span-options.js';

/** Token counts reported by the provider. Absent counts are never estimated. */
export interface ModelUsage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadInputTokens?: number;
  cacheCreationInputTokens?: number;
}

/** What the model call was asked. */
export interface ModelCallOptions {
  /** `gen_ai.provider.name`, e.g. `openai`, `anthropic`, `gcp.gemini`, `aws.bedrock`. */
  provider: string;
  /** `gen_ai.request.model`. */
  model: string;
  /** `gen_ai.operation.name`; default `chat`. */
  operation?: string;
  /** Input messages (GenAI format: `[{ role, parts: [...] }]`); content, recorded when capture is on. */
  input?: unknown;
  /** System instructions (`gen_ai.system_instructions`); content. */
  systemInstructions?: unknown;
  /** Extra attributes, e.g. request parameters (`gen_ai.request.temperature`). */
  attributes?: Attributes;
  sessionId?: string;
  userId?: string;
  parentContext?: Context;
}

/** What the provider answered. */
export interface ModelResponse {
  /** `gen_ai.response.model`. */
  model?: string;
  /** `gen_ai.response.id`. */
  id?: string;
  /** `gen_ai.response.finish_reasons`. */
  finishReasons?: string[];
  /** Output messages (GenAI format); content, recorded when capture is on. */
  output?: unknown;
  usage?: ModelUsage;
}

/** The handle a `model` callback receives. */
export interface ModelCallHandle extends SpanHandle {
  /** Records the response: model, ID, finish reasons, usage given, and output messages. */
  setResponse(response: ModelResponse): void;
}

const USAGE_ATTRIBUTES: Readonly<Record<keyof ModelUsage, string>> = {
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheCreationInputTokens: 'gen_ai.usage.cache_creation.input_tokens',
};

/** The non-content attributes of a response (usage only as given, never estimated). */
export function responseAttributes(response: ModelResponse): Attributes {
  const attributes: Attributes = {};
  if (typeof response.model === 'string') attributes['gen_ai.response.model'] = response.model;
  if (typeof response.id === 'string') attributes['gen_ai.response.id'] = response.id;
  if (Array.isArray(response.finishReasons))
    attributes['gen_ai.response.finish_reasons'] = response.finishReasons;
  for (const [field, name] of Object.entries(USAGE_ATTRIBUTES) as [keyof ModelUsage, string][]) {
    const value = response.usage?.[field];
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) attributes[name] = value;
  }
  return attributes;
}

/** Validates `model` options; throws `TypeError` naming the option, the value and the rule. */
export function validateModelCall(options: ModelCallOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`model options must be an object with provider and model; got ${String(options)}`);
  }
  for (const field of ['provider', 'model'] as const) {
    const value = options[field];
    if (typeof value !== 'string' || value.trim() === '') {
      throw new TypeError(`${field} must be a nonblank string; got ${JSON.stringify(value)}`);
    }
  }
  if (
    options.operation !== undefined &&
    (typeof options.operation !== 'string' || options.operation.trim() === '')
  ) {
    throw new TypeError(`operation must be a nonblank string; got ${JSON.stringify(options.operation)}`);
  }
}
