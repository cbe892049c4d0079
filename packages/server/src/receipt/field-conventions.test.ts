import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIELD_CONVENTIONS, RECEIPT_FIELDS } from './field-conventions.js';
import { attributeFields, fieldsMap, spanFields } from './record-fields.js';

describe('receipt field conventions', () => {
  it('covers at least the fields the spec names', () => {
    expect(RECEIPT_FIELDS).toEqual(
      expect.arrayContaining(['input', 'output', 'model', 'usage', 'session', 'user', 'error']),
    );
  });

  it('is documented in the package README, attribute by attribute', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const field of RECEIPT_FIELDS) {
      const row = readme.split('\n').find((line) => line.startsWith(`| \`${field}\` |`));
      expect(row, `README row for ${field}`).toBeDefined();
      for (const convention of FIELD_CONVENTIONS[field]) {
        for (const name of convention.names) expect(row).toContain(`\`${name}\``);
        for (const prefix of convention.prefixes ?? []) expect(row).toContain(`\`${prefix}*\``);
      }
    }
  });

  it('computes masks from names and prefixes, not values', () => {
    const mask = attributeFields([
      { key: 'gen_ai.prompt.3.content', value: {} },
      { key: 'llm.model_name', value: { stringValue: '' } },
      { key: 'unrelated', value: { stringValue: 'gen_ai.input.messages' } },
    ]);
    expect(fieldsMap(mask)).toMatchObject({ input: true, model: true, output: false, usage: false });
    expect(fieldsMap(spanFields([], 2, []))).toMatchObject({ error: true });
    expect(
      fieldsMap(
        spanFields([], 1, [{ name: 'log', timeUnixNano: '0', attributes: [], droppedAttributesCount: 0 }]),
      ).error,
    ).toBe(false);
  });

  it('gives every key the same mask however often it comes back, past the memo of known keys', () => {
    const keys = ['gen_ai.prompt.0.content', 'gen_ai.request.model', 'gen_ai.operation.name', 'x'];
    const first = keys.map((key) => attributeFields({ json: '[]', keys: [key] }));
    expect(first.map((mask) => fieldsMap(mask).input)).toEqual([true, false, false, false]);
    expect(fieldsMap(first[1]!).model).toBe(true);
    expect(first[2]).toBe(0);
    // Many distinct keys (free text) fill the memo and clear it; known keys still read the same.
    for (let i = 0; i < 10_000; i++) attributeFields({ json: '[]', keys: [`custom.key.${i}`] });
    expect(keys.map((key) => attributeFields([{ key, value: {} }]))).toEqual(first);
  });
});
