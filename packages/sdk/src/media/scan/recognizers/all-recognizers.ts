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
import type { Recognizer } from './recognizer.js';

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
