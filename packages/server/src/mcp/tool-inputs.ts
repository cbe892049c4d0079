/**
 * Arguments several tools share, with the descriptions a model reads to call them right. Names
 * are snake_case, as MCP tools usually have them.
 * @module
 */
import { z } from 'zod';
import { DEFAULT_MAX_TOKENS, MIN_MAX_TOKENS } from './budget/answer-budget.js';

const ALL_ZERO = /^0+$/;

/** A 32-hex trace ID. */
export const traceIdInput = z
  .string()
  .regex(/^[0-9a-f]{32}$/, 'must be 32 lowercase hex characters')
  .refine((id) => !ALL_ZERO.test(id), 'must not be all zero')
  .describe('OpenTelemetry trace ID, 32 lowercase hex');

/** A 16-hex span ID. */
export const spanIdInput = z
  .string()
  .regex(/^[0-9a-f]{16}$/, 'must be 16 lowercase hex characters')
  .refine((id) => !ALL_ZERO.test(id), 'must not be all zero')
  .describe('Span ID, 16 lowercase hex');

/** A registry ID (UUID). */
export const uuidInput = (what: string) =>
  z
    .string()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a UUID')
    .describe(`${what} (UUID)`);

/** `include_content`: recorded content only on request. */
export const includeContentInput = z
  .boolean()
  .default(false)
  .describe(
    'true: include recorded content (message text, tool arguments/results, content attributes, log bodies). Default false: only its presence and size',
  );

/** `max_tokens`: a lower budget. */
export const maxTokensInput = z
  .number()
  .int('must be a whole number')
  .min(MIN_MAX_TOKENS)
  .max(DEFAULT_MAX_TOKENS)
  .optional()
  .describe(
    `Answer budget in tokens (~4 characters each), ${MIN_MAX_TOKENS}-${DEFAULT_MAX_TOKENS}; default ${DEFAULT_MAX_TOKENS}`,
  );

/** `cursor`: continues a previous answer. */
export const cursorInput = z
  .string()
  .min(1)
  .max(4096)
  .optional()
  .describe('Continue a previous answer: copy the cursor from its cuts[].next (or nextPage)');

/** `limit`: items per page of a listing. */
export const limitInput = (max: number, fallback: number) =>
  z
    .number()
    .int('must be a whole number')
    .min(1)
    .max(max)
    .optional()
    .describe(`Items per page, 1-${max}; default ${fallback}`);
