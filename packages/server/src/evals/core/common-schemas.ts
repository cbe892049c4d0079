/**
 * Schemas shared by the registry's routes: IDs, identity, JSON values.
 * @module
 */
import { z } from '@hono/zod-openapi';
import { STATED_IN_SCHEMA } from '../../http/invalid-request.js';
import { MAX_PINNED_SCORER_VERSIONS } from './eval-limits.js';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A registry ID: a lowercase UUID. */
export const IdSchema = z.string().regex(UUID_PATTERN, 'must be a lowercase UUID');

/** A path parameter holding a registry ID. */
export function idParam(name: string) {
  return IdSchema.openapi({ param: { name, in: 'path' }, example: '0b7c3c9e-8d2a-4f57-9a43-2f6d0c1e5b8a' });
}

/** Any JSON value, required (present; `null` is a present value). */
export const JsonValueSchema = z
  .unknown()
  .refine((value) => value !== undefined, { message: 'is required', params: { [STATED_IN_SCHEMA]: true } })
  .openapi({ description: 'Any JSON value' });

/** A JSON value that may be omitted (omitted is not `null`). */
export const OptionalJsonValueSchema = z
  .unknown()
  .optional()
  .openapi({ description: 'Any JSON value; may be omitted' });

/** A JSON object. */
export const JsonObjectSchema = z.record(z.string(), z.unknown()).openapi({ description: 'A JSON object' });

/**
 * JavaScript's whitespace (what `\s` and `String.prototype.trim` remove), spelled out so a JSON
 * Schema `pattern` means the same in every regular-expression engine (Python's `\s` differs).
 */
export const WHITESPACE_CLASS =
  '\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';

/** Matches a string holding a character that is not whitespace. */
const NON_WHITESPACE = new RegExp(`[^${WHITESPACE_CLASS}]`);

/**
 * A string of at most `max` characters (Unicode code points, as JSON Schema's `maxLength`
 * counts them, so the OpenAPI document states the rule exactly).
 */
export function chars(max: number) {
  return z
    .string()
    .refine((value) => value.length <= max || [...value].length <= max, {
      message: `must be at most ${max} characters`,
      params: { [STATED_IN_SCHEMA]: true },
    })
    .openapi({ maxLength: max });
}

/** Text with non-whitespace content and at most `max` characters (code points). */
export function text(max: number) {
  return chars(max).regex(NON_WHITESPACE, 'must have non-whitespace content');
}

/** A slug: lowercase letters, digits and single hyphens, 1 to 64 characters. */
export const SlugSchema = z
  .string()
  .regex(
    /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
    'must be lowercase letters, digits and single hyphens (for example "support-tickets")',
  )
  .max(64);

/** `{ name, slug, description? }`: the identity of a dataset or a scorer. */
export const IdentitySchema = z
  .strictObject({
    name: text(256),
    slug: SlugSchema,
    description: chars(4096).optional(),
  })
  .openapi('Identity');

/** Identity input. */
export type Identity = z.output<typeof IdentitySchema>;

/** An error of an execution or a score: `{ type, message? }`. */
export const ErrorInfoSchema = z
  .strictObject({
    type: text(256),
    message: chars(16_384).optional(),
  })
  .openapi('ErrorInfo');

/** Unique scorer version IDs, at most 32. */
export function scorerVersionIds(min: number) {
  return z
    .array(IdSchema)
    .min(min)
    .max(MAX_PINNED_SCORER_VERSIONS)
    .refine((ids) => new Set(ids).size === ids.length, { message: 'must not repeat an ID' });
}
