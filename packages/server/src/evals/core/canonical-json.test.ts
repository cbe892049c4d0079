import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';
import { requestFingerprint } from './idempotency-ledger.js';

function shuffleKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shuffleKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).reverse();
  return Object.fromEntries(entries.map(([key, inner]) => [key, shuffleKeys(inner)]));
}

describe('canonicalJson', () => {
  it('sorts keys at every level and drops no values', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: null, e: 'x' }], c: true } })).toBe(
      '{"a":{"c":true,"d":[2,{"e":"x","f":null}]},"b":1}',
    );
  });

  it('gives the same text whatever the key order (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const parsed = JSON.parse(JSON.stringify(value)) as unknown;
        expect(canonicalJson(shuffleKeys(parsed))).toBe(canonicalJson(parsed));
        expect(JSON.parse(canonicalJson(parsed))).toEqual(parsed);
      }),
    );
  });
});

describe('requestFingerprint', () => {
  it('differs by method, path and body meaning', () => {
    const base = requestFingerprint('POST', '/a', { x: 1, y: 2 });
    expect(requestFingerprint('POST', '/a', { y: 2, x: 1 })).toBe(base);
    expect(requestFingerprint('POST', '/b', { x: 1, y: 2 })).not.toBe(base);
    expect(requestFingerprint('POST', '/a', { x: 1, y: 3 })).not.toBe(base);
  });
});
