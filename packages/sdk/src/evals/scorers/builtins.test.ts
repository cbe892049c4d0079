import { describe, expect, it } from 'vitest';
import { builtins } from './builtins.js';
import type { JsonSchema } from './scorer-definitions.js';

describe('builtins', () => {
  it('makes the built-in definitions with their fixed boolean metric', () => {
    expect(builtins.exactMatch()).toEqual({
      kind: 'builtin',
      builtin: 'exact_match',
      metrics: [{ name: 'exact_match', type: 'boolean' }],
    });
    expect(builtins.includes()).toEqual({
      kind: 'builtin',
      builtin: 'includes',
      caseSensitive: true,
      metrics: [{ name: 'includes', type: 'boolean' }],
    });
    expect(builtins.includes(false)).toMatchObject({ caseSensitive: false });
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    expect(builtins.jsonSchema(schema)).toEqual({
      kind: 'builtin',
      builtin: 'json_schema',
      schema,
      metrics: [{ name: 'json_schema', type: 'boolean' }],
    });
    expect(builtins.jsonSchema(true)).toMatchObject({ schema: true });
  });

  it('returns a new definition each time, with a copy of the schema', () => {
    const schema = { type: 'string' };
    const definition = builtins.jsonSchema(schema);
    expect(definition.schema).not.toBe(schema);
    definition.metrics[0].name = 'changed';
    expect(builtins.jsonSchema(schema).metrics[0].name).toBe('json_schema');
    expect(builtins.exactMatch()).not.toBe(builtins.exactMatch());
  });

  it('accepts draft 2020-12 keywords, $defs references and unknown keywords; format is an annotation', () => {
    expect(() =>
      builtins.jsonSchema({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $defs: { item: { type: 'string', format: 'not-a-known-format' } },
        type: 'array',
        prefixItems: [{ $ref: '#/$defs/item' }],
        unevaluatedItems: false,
        'x-ui-hint': 'list',
      }),
    ).not.toThrow();
  });

  it('refuses an invalid schema with a TypeError naming the option', () => {
    const cases: [unknown, string][] = [
      [{ type: 'strin' }, 'schema must be a valid JSON Schema (draft 2020-12): schema is invalid:'],
      [{ minLength: -1 }, 'schema must be a valid JSON Schema (draft 2020-12): schema is invalid:'],
      [{ $ref: 'https://example.com/other.json' }, 'schema must be a valid JSON Schema (draft 2020-12): '],
      [{ $ref: '#/$defs/missing' }, 'schema must be a valid JSON Schema (draft 2020-12): '],
      [
        { $schema: 'http://json-schema.org/draft-07/schema#', type: 'string' },
        'schema must be a valid JSON Schema (draft 2020-12): ',
      ],
      [{ type: 'string', pattern: '(' }, 'schema must be a valid JSON Schema (draft 2020-12): '],
      [[], 'schema must be a JSON Schema (an object or a boolean); got an array'],
      [
        '{"type":"string"}',
        'schema must be a JSON Schema (an object or a boolean); got "{\\"type\\":\\"string\\"}"',
      ],
      [null, 'schema must be a JSON Schema (an object or a boolean); got null'],
      [{ maximum: 10n }, 'schema must be a JSON value; it holds a bigint'],
    ];
    for (const [schema, message] of cases) {
      let thrown: unknown;
      try {
        builtins.jsonSchema(schema as JsonSchema);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, message).toBeInstanceOf(TypeError);
      expect((thrown as TypeError).message.startsWith(message), (thrown as TypeError).message).toBe(true);
    }
  });

  it('refuses a caseSensitive that is not a boolean', () => {
    expect(() => builtins.includes('no' as unknown as boolean)).toThrow(
      new TypeError('caseSensitive must be a boolean (default true); got "no"'),
    );
    expect(() => builtins.includes(null as unknown as boolean)).toThrow(
      new TypeError('caseSensitive must be a boolean (default true); got null'),
    );
  });
});
