import { describe, expect, it } from 'vitest';
import { describeKind, describeValue } from './describe-value.js';

describe('describeValue', () => {
  it('shows short strings and literals as written', () => {
    expect(describeValue('abc')).toBe('"abc"');
    expect(describeValue('x'.repeat(80))).toBe(`"${'x'.repeat(80)}"`);
    expect(describeValue('')).toBe('an empty string');
    expect(describeValue(-0)).toBe('-0');
    expect(describeValue(1.5)).toBe('1.5');
    expect(describeValue(Number.NaN)).toBe('NaN');
    expect(describeValue(12n)).toBe('12n');
    expect(describeValue(true)).toBe('true');
    expect(describeValue(null)).toBe('null');
    expect(describeValue(undefined)).toBe('undefined');
  });

  it('never shows a long string, only its length in characters (code points)', () => {
    expect(describeValue('x'.repeat(81))).toBe('a string of 81 characters');
    expect(describeValue('🚀'.repeat(41))).toBe('a string of 41 characters');
  });

  it('shows other values by their kind only', () => {
    expect(describeValue([1])).toBe('an array');
    expect(describeValue({ apiKey: 'svc_secret' })).toBe('an object');
    expect(describeValue(() => 1)).toBe('a function');
    expect(describeValue(Symbol('s'))).toBe('a symbol');
  });
});

describe('describeKind', () => {
  it('never shows the value, even a short string', () => {
    expect(describeKind('svc_rw_secret')).toBe('a string');
    expect(describeKind('')).toBe('an empty string');
    expect(describeKind(42)).toBe('a number');
    expect(describeKind(null)).toBe('null');
    expect(describeKind(undefined)).toBe('undefined');
    expect(describeKind([])).toBe('an array');
    expect(describeKind(new Map())).toBe('an object');
  });
});
