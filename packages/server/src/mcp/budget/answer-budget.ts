/**
 * The budget every MCP answer fits: 20,000 tokens by default, estimated as 4 characters a token,
 * over the whole result (the structured answer's JSON text plus its text rendering). Hosts cut or
 * refuse results past about 25,000 tokens; an answer inside the budget always arrives whole, and
 * says what it left out and how to fetch it (`AnswerCut`).
 * @module
 */

/** Default (and largest) budget of an answer, in estimated tokens. */
export const DEFAULT_MAX_TOKENS = 20_000;

/** Smallest budget a caller may ask for (`max_tokens`): every head and receipt fits in it. */
export const MIN_MAX_TOKENS = 2_000;

/** The estimate: 4 characters a token. */
export const CHARACTERS_PER_TOKEN = 4;

/** Characters set aside for the text rendering of an answer (the rest is the structured answer). */
export const TEXT_RENDERING_CHARACTERS = 2_000;

/** Estimated tokens of `characters` characters. */
export function estimateTokens(characters: number): number {
  return Math.ceil(characters / CHARACTERS_PER_TOKEN);
}

/** The budget in characters for `maxTokens` (default {@link DEFAULT_MAX_TOKENS}). */
export function budgetCharacters(maxTokens: number | undefined): number {
  return (maxTokens ?? DEFAULT_MAX_TOKENS) * CHARACTERS_PER_TOKEN;
}

/** The size an answer states. */
export interface AnswerSize {
  /** Characters of the whole result: the structured answer's JSON text and the text rendering. */
  characters: number;
  /** `characters` / 4, rounded up. */
  tokens: number;
  /** The budget the answer was fitted to. */
  budgetTokens: number;
}
