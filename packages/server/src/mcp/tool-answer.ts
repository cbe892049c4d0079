/**
 * A tool's answer as MCP returns it: the structured answer (`structuredContent`), with its cuts
 * and its size, and a short text rendering (`content`), together within the answer's budget.
 * @module
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  type AnswerSize,
  budgetCharacters,
  estimateTokens,
  TEXT_RENDERING_CHARACTERS,
} from './budget/answer-budget.js';
import type { AnswerCut } from './budget/answer-cut.js';
import type { FittedAnswer } from './budget/fit-answer.js';

/** A structured answer as sent: the fitted answer, its cuts and its size. */
export type StructuredAnswer = Record<string, unknown> & { cuts: AnswerCut[]; size: AnswerSize };

/** How a tool builds its answer. */
export interface AnswerSpec {
  /** `max_tokens` of the call (default 20,000). */
  maxTokens: number | undefined;
  /** The answer fitted into `room` characters of JSON text. */
  fit(room: number): FittedAnswer | Promise<FittedAnswer>;
  /** The text rendering of the answer (cut to 2,000 characters if longer). */
  render(answer: StructuredAnswer): string;
}

/** The most fitting rounds before giving up (each one leaves more room for what did not fit). */
const MAX_ROUNDS = 8;

function clampText(text: string): string {
  if (text.length <= TEXT_RENDERING_CHARACTERS) return text;
  const tail = '\n… (more in the structured answer)';
  const cut = text.lastIndexOf('\n', TEXT_RENDERING_CHARACTERS - tail.length);
  return `${text.slice(0, cut > 0 ? cut : TEXT_RENDERING_CHARACTERS - tail.length)}${tail}`;
}

/**
 * Builds the tool result of `spec`: fits the answer, renders it, states its size, and fits it
 * again in less room while the whole is over the budget (estimates of cut sizes can be short).
 */
export async function toolAnswer(spec: AnswerSpec): Promise<CallToolResult> {
  const budget = budgetCharacters(spec.maxTokens);
  const budgetTokens = estimateTokens(budget);
  let room = budget - TEXT_RENDERING_CHARACTERS;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const fitted = await spec.fit(room);
    const structured: StructuredAnswer = {
      ...fitted.answer,
      cuts: fitted.cuts,
      size: { characters: 0, tokens: 0, budgetTokens },
    };
    let text = '';
    // Until it holds still: the size's own digits (in both renderings) are part of the size.
    for (let pass = 0; pass < 8; pass++) {
      text = clampText(spec.render(structured));
      const characters = text.length + JSON.stringify(structured).length;
      if (characters === structured.size.characters) break;
      structured.size = { characters, tokens: estimateTokens(characters), budgetTokens };
    }
    if (structured.size.characters <= budget) {
      return { content: [{ type: 'text', text }], structuredContent: structured };
    }
    room -= structured.size.characters - budget + 512;
  }
  throw new Error('the answer could not be fitted into its budget');
}

/** Thousands separators, for text renderings. */
export function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** The lines of a text rendering stating an answer's size and its cuts with their calls. */
export function renderCuts(answer: StructuredAnswer): string[] {
  const lines = [`Answer size: ~${count(answer.size.tokens)} of ${count(answer.size.budgetTokens)} tokens.`];
  if (answer.cuts.length === 0) {
    lines.push('Nothing was left out.');
    return lines;
  }
  lines.push(`Left out to stay in budget (${answer.cuts.length}; each with the call that fetches it):`);
  for (const cut of answer.cuts) {
    const what =
      cut.kind === 'list'
        ? `items ${count(cut.from)}+ (${count(cut.items)})`
        : `the rest from character ${count(cut.from)}`;
    lines.push(
      `- ${cut.at}: ${what}, ~${count(cut.tokens)} tokens → ${cut.next.tool} ${JSON.stringify(cut.next.arguments)}`,
    );
  }
  return lines;
}
