/**
 * Schemas shared by the registry's routes: IDs, identity, JSON values.
 * @module
 */
import { z } from '@hono/zod-openapi';

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
  .refine((value) => value !== undefined, { message: 'is required' })
  .openapi({ description: 'Any JSON value' });

/** A JSON value that may be omitted (omitted is not `null`). */
export const OptionalJsonValueSchema = z
  .unknown()
  .optional()
  .openapi({ description: 'Any JSON value; may be omitted' });

/** A JSON object. */
export const JsonObjectSchema = z.record(z.string(), z.unknown()).openapi({ description: 'A JSON object' });

/** Text with non-whitespace content and at most `max` UTF-16 code units. */
export function text(max: number) {
  return z
    .string()
    .max(max)
    .refine((value) => /\S/u.test(value), { message: 'must have non-whitespace content' });
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
    description: z.string().max(4096).optional(),
  })
  .openapi('Identity');

/** Identity input. */
export type Identity = z.output<typeof IdentitySchema>;

/** An error of an execution or a score: `{ type, message? }`. */
export const ErrorInfoSchema = z
  .strictObject({
    type: text(256),
    message: z.string().max(16_384).optional(),
  })
  .openapi('ErrorInfo');
