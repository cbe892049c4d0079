import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { invalidRequestError, type SchemaIssue, STATED_IN_SCHEMA } from './invalid-request.js';

function answer(schema: z.ZodType, value: unknown, where?: string) {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('the value passed its schema');
  const error = invalidRequestError(result.error.issues as SchemaIssue[], where);
  return { status: error.status, code: error.code, message: error.message };
}

describe('invalidRequestError', () => {
  it('names the field (under where) and the rule, 400', () => {
    const schema = z.strictObject({ page: z.strictObject({ limit: z.number().int().max(100) }) });
    expect(answer(schema, { page: { limit: 101 } }, 'query')).toEqual({
      status: 400,
      code: 'invalid_request',
      message: 'query.page.limit: Too big: expected number to be <=100.',
    });
    expect(answer(schema, { page: { limit: 101 } }).message).toBe(
      'page.limit: Too big: expected number to be <=100.',
    );
    expect(answer(z.string(), 1).message).toBe('request: Invalid input: expected string, received number.');
  });

  it('in a union no branch matched, names the field of the closest branch', () => {
    const schema = z.union([
      z.strictObject({ kind: z.literal('a'), a: z.string() }),
      z.strictObject({ kind: z.literal('b'), b: z.strictObject({ n: z.number() }) }),
    ]);
    expect(answer(schema, { kind: 'b', b: { n: 'x' } }, 'body').message).toBe(
      'body.b.n: Invalid input: expected number, received string.',
    );
  });

  it('422 for a rule the document cannot state; 400 when a stated rule also fails, or the refinement is marked stated', () => {
    const ordered = z
      .strictObject({ min: z.number(), max: z.number() })
      .refine((range) => range.min <= range.max, { message: 'must not be below min', path: ['max'] });
    expect(answer(ordered, { min: 2, max: 1 })).toMatchObject({
      status: 422,
      message: 'max: must not be below min.',
    });
    const both = z.strictObject({
      name: z.string().refine(() => false, { message: 'is taken' }),
      size: z.number(),
    });
    expect(answer(both, { name: 'x', size: 'big' })).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^size: /),
    });
    const stated = z
      .string()
      .refine(() => false, { message: 'is required', params: { [STATED_IN_SCHEMA]: true } });
    expect(answer(stated, 'x')).toMatchObject({ status: 400, message: 'request: is required.' });
  });
});
