/**
 * The part formats, in the order they are tried on each part object; the first that reads it
 * wins. Formats whose parts could look alike are ordered so the more specific shape is tried
 * first, as the SDK's scanner orders its recognizers (an Anthropic image has a `source`, an MCP
 * image a `mimeType`, a LangChain image a `source_type` or `mime_type`, an AI SDK image an
 * `image`).
 * @module
 */

import type { PartFormat } from '../parts/part-reader.js';
import { aiSdkParts } from './ai-sdk-parts.js';
import { anthropicParts } from './anthropic-parts.js';
import { bedrockParts } from './bedrock-parts.js';
import { geminiParts } from './gemini-parts.js';
import { genAiParts } from './genai-parts.js';
import { langChainParts } from './langchain-parts.js';
import { mcpParts } from './mcp-parts.js';
import { openAiChatParts } from './openai-chat-parts.js';
import { openAiResponsesParts } from './openai-responses-parts.js';

export const PART_FORMATS: readonly PartFormat[] = [
  genAiParts,
  openAiChatParts,
  openAiResponsesParts,
  anthropicParts,
  geminiParts,
  bedrockParts,
  mcpParts,
  langChainParts,
  aiSdkParts,
];
