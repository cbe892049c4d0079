/**
 * The recognizers, in the order they are tried on each object; the first that matches wins.
 * Conventions whose parts could look alike are ordered so the more specific shape is tried first
 * (an MCP image declares `mimeType` and holds `data`; an AI SDK image holds `image`).
 * @module
 */

import { aiSdk } from './ai-sdk.js';
import { anthropic } from './anthropic.js';
import { bedrock } from './bedrock.js';
import { gemini } from './gemini.js';
import { genAiParts } from './genai-parts.js';
import { langChain } from './langchain.js';
import { mcp } from './mcp.js';
import { openAiChat } from './openai-chat.js';
import { openAiResponses } from './openai-responses.js';
import type { NodeReader, Recognizer } from './recognizer.js';

export const RECOGNIZERS: readonly Recognizer[] = [
  genAiParts,
  openAiChat,
  openAiResponses,
  anthropic,
  gemini,
  bedrock,
  mcp,
  langChain,
  aiSdk,
];

const NONE: readonly Recognizer[] = [];
const BY_TYPE = new Map<string, Recognizer[]>();
for (const recognizer of RECOGNIZERS) {
  for (const type of recognizer.types) {
    const list = BY_TYPE.get(type) ?? [];
    list.push(recognizer);
    BY_TYPE.set(type, list);
  }
}
const UNTYPED = RECOGNIZERS.filter((recognizer) => recognizer.untypedKeys !== undefined);
const UNTYPED_KEYS = [...new Set(UNTYPED.flatMap((recognizer) => recognizer.untypedKeys ?? []))];

/** The recognizers of parts whose `type` is `type`. */
export function recognizersForType(type: string): readonly Recognizer[] {
  return BY_TYPE.get(type) ?? NONE;
}

/** Every `type` value some recognizer matches. */
export const RECOGNIZED_TYPES: readonly string[] = [...BY_TYPE.keys()];

/** The recognizers of parts without a `type` member. */
export const UNTYPED_RECOGNIZERS: readonly Recognizer[] = UNTYPED;

/** The members one of which a part without `type` must have for {@link UNTYPED_RECOGNIZERS}. */
export const UNTYPED_PART_KEYS: readonly string[] = UNTYPED_KEYS;

/** The recognizers that may match `part`, and its `type` (see {@link Recognizer}). */
export function candidateRecognizers<N>(
  part: N,
  reader: NodeReader<N>,
): { type: string | undefined; recognizers: readonly Recognizer[] } {
  const typeMember = reader.member(part, 'type');
  if (typeMember !== undefined) {
    const type = reader.string(typeMember);
    return { type, recognizers: type === undefined ? NONE : (BY_TYPE.get(type) ?? NONE) };
  }
  for (const key of UNTYPED_KEYS) {
    if (reader.member(part, key) !== undefined) return { type: undefined, recognizers: UNTYPED };
  }
  return { type: undefined, recognizers: NONE };
}
