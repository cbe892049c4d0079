/**
 * Conventions that decide, per attribute, how a value is read, rather than what a part looks like:
 *
 * - OpenInference (`spec/semantic_conventions.md`, Arize-ai/openinference): `input.value` and
 *   `output.value` declared `text/plain` by `input.mime_type` / `output.mime_type` are text, never
 *   read for files. The flattened image URL attributes
 *   (`llm.input_messages.<n>.message.contents.<m>.message_content.image.image.url`) hold a URL: a
 *   whole data: URL value becomes a GenAI blob part keyed `<attribute>#`.
 * - OpenLLMetry (`@traceloop/ai-semantic-conventions`): `gen_ai.prompt.<n>.content` and
 *   `gen_ai.completion.<n>.content` are read only when the value is the JSON of a parts list (an
 *   array); `traceloop.entity.input` / `.output` are JSON read like any other.
 * - Langfuse (`LangfuseOtelSpanAttributes`): observation and trace input, output and metadata are
 *   JSON read like any other; its `@@@langfuseMedia:…@@@` references are plain strings, never files.
 * @module
 */

import { mediaTypeEssence } from '../media/media-type.js';

const DECLARED_TYPE_ATTRIBUTES: Readonly<Record<string, string>> = {
  'input.value': 'input.mime_type',
  'output.value': 'output.mime_type',
};

const INDEXED_CONTENT = /^gen_ai\.(?:prompt|completion)\.\d+\.content$/;

/** True when `attributes` declare the value of attribute `name` as `text/plain` (OpenInference). */
export function isDeclaredPlainText(
  name: string,
  attributes: Readonly<Record<string, unknown>> | undefined,
): boolean {
  const typeAttribute = DECLARED_TYPE_ATTRIBUTES[name];
  if (typeAttribute === undefined) return false;
  return mediaTypeEssence(attributes?.[typeAttribute]) === 'text/plain';
}

/** True when attribute `name` is read only when its JSON is an array of parts (OpenLLMetry). */
export function readsOnlyPartsLists(name: string): boolean {
  return INDEXED_CONTENT.test(name);
}
