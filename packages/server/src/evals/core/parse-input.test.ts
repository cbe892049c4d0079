import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../http/api-error.js';
import { chars, text } from './common-schemas.js';
import { parseInput } from './eval-route.js';

// Issue 13 item 6: a request the OpenAPI document allows is never answered 400. A failure of the
// schema the document states is 400; a rule JSON Schema cannot state (a refinement) is 422.
function failure(schema: z.ZodType, value: unknown): ApiError {
  try {
    parseInput(schema, value, '');
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('parsed');
}

const Range = z
  .strictObject({ min: z.number(), max: z.number(), name: text(8) })
  .refine((range) => range.min <= range.max, { message: 'min must not be greater than max', path: ['min'] });

describe('parseInput', () => {
  it('answers 400 for what the document states: a type, a pattern, a length, an unknown field', () => {
    for (const value of [
      { min: 'a', max: 1, name: 'x' },
      { min: 1, max: 2, name: '   ' },
      { min: 1, max: 2, name: 'x'.repeat(9) },
      { min: 1, max: 2, name: 'x', extra: true },
    ]) {
      const error = failure(Range, value);
      expect(error.status, JSON.stringify(value)).toBe(400);
      expect(error.code).toBe('invalid_request');
    }
  });

  it('answers 422 for a rule the document cannot state, naming the field', () => {
    const error = failure(Range, { min: 2, max: 1, name: 'x' });
    expect(error.status).toBe(422);
    expect(error.message).toBe('min: min must not be greater than max.');
  });

  it('names a schema failure first when a value also breaks a refinement', () => {
    const error = failure(Range, { min: 2, max: 1, name: '' });
    expect(error.status).toBe(400);
    expect(error.message).toContain('name');
  });

  it('counts characters as JSON Schema does (code points), so an astral character is one', () => {
    expect(parseInput(chars(3), '😀😀😀', '')).toBe('😀😀😀');
    expect(failure(chars(3), '😀😀😀😀').status).toBe(400);
  });
});
