/**
 * `sessionId` and `userId` are 1 to 4096 valid characters (spec "Span options"): counted in
 * characters — Unicode code points, so a character outside the Basic Multilingual Plane (two
 * UTF-16 units) counts once — and a lone surrogate, which is no character, is refused.
 */
import { describe, expect, it } from 'vitest';
import { validateWithSpan } from './span-options.js';

/** U+1F600, one character of two UTF-16 units. */
const ASTRAL = '\u{1F600}';

const check = (name: 'sessionId' | 'userId', value: unknown) => () =>
  validateWithSpan('work', () => undefined, { [name]: value });

describe.each(['sessionId', 'userId'] as const)('%s', (name) => {
  const rule = `${name} must be 1 to 4096 well-formed characters`;

  it('accepts 4096 characters outside the Basic Multilingual Plane (8192 UTF-16 units)', () => {
    const value = ASTRAL.repeat(4096);
    expect(value.length).toBe(8192);
    expect(check(name, value)).not.toThrow();
  });

  it('accepts 4095 plain characters and one astral character (4097 UTF-16 units)', () => {
    expect(check(name, `${'a'.repeat(4095)}${ASTRAL}`)).not.toThrow();
  });

  it('accepts one character, astral or not, and 4096 plain characters', () => {
    expect(check(name, ASTRAL)).not.toThrow();
    expect(check(name, 'a')).not.toThrow();
    expect(check(name, 'a'.repeat(4096))).not.toThrow();
  });

  it('refuses 4097 characters, counting them as characters', () => {
    expect(check(name, ASTRAL.repeat(4097))).toThrow(
      new TypeError(`${rule}; got a string of 4097 characters`),
    );
    expect(check(name, `${'a'.repeat(4096)}${ASTRAL}`)).toThrow(
      new TypeError(`${rule}; got a string of 4097 characters`),
    );
    expect(check(name, 'a'.repeat(4097))).toThrow(new TypeError(`${rule}; got a string of 4097 characters`));
    expect(check(name, ASTRAL.repeat(9000))).toThrow(
      new TypeError(`${rule}; got a string of 9000 characters`),
    );
  });

  it('refuses the empty string', () => {
    expect(check(name, '')).toThrow(new TypeError(`${rule}; got a string of 0 characters`));
  });

  it.each([
    ['a lone high surrogate', 'session-\ud83d'],
    ['a lone low surrogate', '\ude00-session'],
    ['a reversed pair', '\ude00\ud83d'],
    ['4096 astral characters with the last one cut in half', `${ASTRAL.repeat(4095)}\ud83d`],
  ])('refuses %s: no valid character', (_, value) => {
    expect(check(name, value)).toThrow(
      new TypeError(`${rule}; got a string with a lone surrogate, which is not a character`),
    );
  });

  it('refuses what is not a string', () => {
    expect(check(name, 42)).toThrow(new TypeError(`${rule}; got number`));
    expect(check(name, null)).toThrow(new TypeError(`${rule}; got object`));
  });
});
