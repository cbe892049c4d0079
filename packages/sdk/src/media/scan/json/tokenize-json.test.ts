import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { childrenOf } from '../test-support.js';
import { ARRAY, type JsonTape, LITERAL, NUMBER, OBJECT, ROOT, STRING } from './json-tape.js';
import { MAX_NESTING, releaseTape, tokenizeJson } from './tokenize-json.js';

/** The text of every node, in reading order, with its kind. */
function ranges(tape: JsonTape): string[] {
  const names = ['object', 'array', 'string', 'number', 'literal'];
  return Array.from(
    { length: tape.size },
    (_, node) => `${names[tape.kind(node)]} ${tape.text.slice(tape.starts[node], tape.ends[node])}`,
  );
}

/** Each node's children as nested arrays of their texts (the tree the `nexts` describe). */
function tree(tape: JsonTape, node = ROOT): unknown {
  const kind = tape.kind(node);
  if (kind !== OBJECT && kind !== ARRAY) return tape.text.slice(tape.starts[node], tape.ends[node]);
  return childrenOf(tape, node).map((child) => tree(tape, child));
}

describe('tokenizeJson', () => {
  it('positions every value, links children and keys, and notes escapes', () => {
    const text = ' {"a": [1, "x\\"y", {"b": null}], "c": "plain", "d": -2.5e3} ';
    const result = tokenizeJson(text);
    if (!result.ok) throw new Error(result.reason);
    const { tape } = result;
    expect(ranges(tape)).toEqual([
      'object {"a": [1, "x\\"y", {"b": null}], "c": "plain", "d": -2.5e3}',
      'array [1, "x\\"y", {"b": null}]',
      'number 1',
      'string "x\\"y"',
      'object {"b": null}',
      'literal null',
      'string "plain"',
      'number -2.5e3',
    ]);
    expect(tree(tape)).toEqual([['1', '"x\\"y"', ['null']], '"plain"', '-2.5e3']);
    expect([tape.kind(ROOT), tape.kind(1), tape.kind(2), tape.kind(3), tape.kind(5)]).toEqual([
      OBJECT,
      ARRAY,
      NUMBER,
      STRING,
      LITERAL,
    ]);
    expect(tape.escaped(3)).toBe(true);
    expect(tape.escaped(6)).toBe(false);
    expect(tape.childCount(ROOT)).toBe(3);
    expect(tape.childCount(1)).toBe(3);
    const keyOf = (node: number) => text.slice(tape.keyStarts[node], tape.keyEnds[node]);
    expect(childrenOf(tape, ROOT).map(keyOf)).toEqual(['"a"', '"c"', '"d"']);
    expect(keyOf(5)).toBe('"b"');
    expect(tape.keyStarts[2]).toBe(-1);
  });

  it('reuses released tapes, growing them as texts need', () => {
    const big = JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ i, s: `v${i}` })));
    const first = tokenizeJson(big);
    if (!first.ok) throw new Error(first.reason);
    expect(first.tape.size).toBe(1 + 5000 * 3);
    releaseTape(first.tape);
    const small = tokenizeJson('[{"a":"b"}]');
    if (!small.ok) throw new Error(small.reason);
    expect(ranges(small.tape)).toEqual(['array [{"a":"b"}]', 'object {"a":"b"}', 'string "b"']);
    // A tape still held is never handed out again
    const other = tokenizeJson('["c"]');
    if (!other.ok) throw new Error(other.reason);
    expect(other.tape).not.toBe(small.tape);
    expect(ranges(small.tape)).toEqual(['array [{"a":"b"}]', 'object {"a":"b"}', 'string "b"']);
    releaseTape(small.tape);
    releaseTape(other.tape);
  });

  it('reads a lone number, literal or string, up to the very end of the text', () => {
    for (const [text, kind] of [
      ['42', NUMBER],
      [' -0.5e+3', NUMBER],
      ['0', NUMBER],
      ['true ', LITERAL],
      ['null', LITERAL],
      ['"s"', STRING],
    ] as const) {
      const result = tokenizeJson(text);
      if (!result.ok) throw new Error(`${text}: ${result.reason}`);
      expect([result.tape.size, result.tape.kind(ROOT)]).toEqual([1, kind]);
      expect(text.slice(result.tape.starts[ROOT], result.tape.ends[ROOT])).toBe(text.trim());
      releaseTape(result.tape);
    }
    for (const text of ['4.', '-', '1e', '[1', '{"a":1', '[', '{', 'tru']) {
      expect(tokenizeJson(text), text).toEqual({ ok: false, reason: 'malformed' });
    }
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
