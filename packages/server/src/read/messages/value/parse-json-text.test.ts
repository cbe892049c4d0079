import { describe, expect, it } from 'vitest';
import { parseJsonText } from './parse-json-text.js';

describe('parseJsonText (spec: JSON nesting past 32 levels or an integer past 2^53 is kept as text)', () => {
  it('parses JSON nested up to 32 levels, less the levels already used', () => {
    const nested = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;
    expect(parseJsonText(nested(32)).ok).toBe(true);
    expect(parseJsonText(nested(33)).ok).toBe(false);
    expect(parseJsonText(nested(30), 2).ok).toBe(true);
    expect(parseJsonText(nested(31), 2).ok).toBe(false);
    expect(parseJsonText(nested(100_000)).ok).toBe(false);
  });

  it('ends a string at a quote after an escaped backslash', () => {
    const value = { a: 'x\\', b: [[1]], c: '\\"[[[' };
    expect(parseJsonText(JSON.stringify(value), 29)).toEqual({ ok: true, value });
    expect(parseJsonText(JSON.stringify(value), 31).ok).toBe(false);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(parseJsonText(JSON.stringify({ a: `"${'['.repeat(50)}\\"` }))).toEqual({
      ok: true,
      value: { a: `"${'['.repeat(50)}\\"` },
    });
  });

  it('keeps text with an integer past 2^53, and reads 2^53, fractions and exponents', () => {
    expect(parseJsonText('{"seed":9007199254740993}').ok).toBe(false);
    expect(parseJsonText('[-12345678901234567]').ok).toBe(false);
    expect(parseJsonText('[9007199254740992, 1234567890123456.5, 1e300, "9007199254740993"]')).toEqual({
      ok: true,
      value: [9007199254740992, 1234567890123456.5, 1e300, '9007199254740993'],
    });
  });

  it('answers not JSON for malformed or empty text', () => {
    for (const text of ['', '{', 'hello', '[1,]', '{"a":1}}']) expect(parseJsonText(text).ok).toBe(false);
  });
});
