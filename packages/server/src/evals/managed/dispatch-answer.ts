/**
 * What a dispatch keeps of a target's answer: only the fields of the managed handler's answer,
 * each with the handler's type ({@link DispatchAnswerSchema}). A Read key reads dispatches, and
 * the target URL is chosen by a Read-and-write key: keeping the answer whole would let that key
 * read another service's answer through the service.
 * @module
 */
import type { z } from '@hono/zod-openapi';
import { DispatchAnswerSchema } from './managed-schemas.js';

/** The fields of a target's answer a dispatch keeps. */
export type DispatchAnswer = z.output<typeof DispatchAnswerSchema>;

const FIELDS = DispatchAnswerSchema.shape;

/**
 * The managed handler's fields of `answer` (a parsed JSON value), each kept only when valid; `null`
 * when `answer` is not a JSON object or has none of them.
 */
export function dispatchAnswerOf(answer: unknown): DispatchAnswer | null {
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) return null;
  const kept: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(FIELDS)) {
    const value = (answer as Record<string, unknown>)[name];
    if (value === undefined) continue;
    const parsed = schema.safeParse(value);
    if (parsed.success && parsed.data !== undefined) kept[name] = parsed.data;
  }
  return Object.keys(kept).length === 0 ? null : (kept as DispatchAnswer);
}
