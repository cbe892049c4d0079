import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ARRAY, type JsonNode, OBJECT, STRING } from './json-node.js';
import { MAX_NESTING, tokenizeJson } from './tokenize-json.js';

function ranges(text: string, node: JsonNode, out: string[] = []): string[] {
  if (node.kind === STRING || node.kind === OBJECT || node.kind === ARRAY)
    out.push(text.slice(node.start, node.end));
  for (const child of node.children ?? []) ranges(text, child, out);
  return out;
}

describe('tokenizeJson', () => {
  it('positions objects, arrays and strings, and notes escapes', () => {
    const text = ' {"a": [1, "x\\"y", {"b": null}], "c": "plain"} ';
    const result = tokenizeJson(text);
    if (!result.ok) throw new Error(result.reason);
    expect(ranges(text, result.root)).toEqual([
      '{"a": [1, "x\\"y", {"b": null}], "c": "plain"}',
      '[1, "x\\"y", {"b": null}]',
      '"x\\"y"',
      '{"b": null}',
      '"plain"',
    ]);
    const array = result.root.children![0]!;
    expect(array.children![1]!.escaped).toBe(true);
    expect(result.root.children![1]!.escaped).toBe(false);
    const a = text.indexOf('"a"');
    const c = text.indexOf('"c"');
    expect(result.root.keys).toEqual([a, a + 3, c, c + 3]);
  });

  it('finds string ends after runs of backslashes', () => {
    for (const text of ['"\\\\"', '"a\\\\\\"b"', '["\\\\", "\\""]']) {
      expect(tokenizeJson(text).ok, text).toBe(true);
    }
  });

  it.each([
    '',
    '{',
    '[1,]',
    '{"a":1,}',
    '{"a" 1}',
    '{a:1}',
    '[01]',
    '[1.]',
    '[1e]',
    '[-]',
    '[tru]',
    '"open',
    '[1] [2]',
    "['x']",
    '[NaN]',
  ])('rejects %j', (text) => {
    expect(tokenizeJson(text)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('stops past 32 levels of nesting', () => {
    expect(tokenizeJson('['.repeat(MAX_NESTING) + ']'.repeat(MAX_NESTING)).ok).toBe(true);
    expect(tokenizeJson('['.repeat(MAX_NESTING + 1) + ']'.repeat(MAX_NESTING + 1))).toEqual({
      ok: false,
      reason: 'too-deep',
    });
    expect(tokenizeJson('[[1]]', { nestingUsed: MAX_NESTING - 1 })).toEqual({
      ok: false,
      reason: 'too-deep',
    });
  });

  it('reports integers past 2^53', () => {
    const big = (text: string) => {
      const result = tokenizeJson(text);
      return result.ok && result.bigInteger;
    };
    expect(big('[9007199254740992]')).toBe(false);
    expect(big('[9007199254740993]')).toBe(true);
    expect(big('{"n":-10000000000000000}')).toBe(true);
    expect(big('[10000000000000000.5]')).toBe(false);
    expect(big('[1e30]')).toBe(false);
  });

  it('accepts exactly what JSON.parse accepts, for generated JSON and mutations of it', () => {
    const mutated = fc
      .tuple(fc.json(), fc.nat(), fc.constantFrom('', ',', ']', '}', '"', ':', 'x', ' ', '\\', '1'))
      .map(
        ([json, at, insert]) =>
          json.slice(0, at % (json.length + 1)) + insert + json.slice(at % (json.length + 1)),
      );
    fc.assert(
      fc.property(fc.oneof(fc.json(), mutated), (text) => {
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        const result = tokenizeJson(text);
        // The tokenizer is lenient only inside strings (escapes and control characters are checked
        // when a string is decoded), which generated JSON never violates except through `\`.
        if (!text.includes('\\')) expect(result.ok).toBe(parses);
        else if (parses) expect(result.ok).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
