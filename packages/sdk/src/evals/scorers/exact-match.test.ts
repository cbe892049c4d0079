import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scoreExactMatch } from './exact-match.js';

function result(equal: boolean, explanation: string) {
  return { status: 'scored', metrics: [{ name: 'exact_match', value: equal, passed: equal }], explanation };
}

describe('scoreExactMatch', () => {
  it('passes equal JSON values, whatever the key order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copy = JSON.parse(JSON.stringify(value));
        expect(scoreExactMatch(value, copy)).toEqual(result(true, 'The output equals the expected value.'));
      }),
    );
    expect(scoreExactMatch({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toEqual(
      result(true, 'The output equals the expected value.'),
    );
    expect(scoreExactMatch(null, null)).toMatchObject({ metrics: [{ value: true }] });
  });

  it('compares strings exactly: no trimming, no case folding', () => {
    expect(scoreExactMatch('Paris', 'Paris')).toMatchObject({ metrics: [{ value: true }] });
    expect(scoreExactMatch('Paris ', 'Paris')).toEqual(
      result(false, 'The output differs from the expected value.'),
    );
    expect(scoreExactMatch('paris', 'Paris')).toMatchObject({ metrics: [{ value: false, passed: false }] });
  });

  it('fails different values, a failed check still being scored', () => {
    expect(scoreExactMatch([1, 2], [2, 1])).toEqual(
      result(false, 'The output differs from the expected value.'),
    );
    expect(scoreExactMatch({ a: 1 }, { a: 1, b: null })).toMatchObject({ metrics: [{ value: false }] });
    expect(scoreExactMatch(null, 'null')).toMatchObject({ metrics: [{ value: true }] });
    expect(scoreExactMatch(true, 1)).toMatchObject({ metrics: [{ value: false }] });
  });

  it('reads a string as JSON text when the other side is not a string', () => {
    expect(scoreExactMatch('{"b":[1,2], "a":1}', { a: 1, b: [1, 2] })).toEqual(
      result(true, 'The output, read as JSON text, equals the expected value.'),
    );
    expect(scoreExactMatch(42, '42')).toEqual(
      result(true, 'The output equals the expected value read as JSON text.'),
    );
    expect(scoreExactMatch('42', 42)).toMatchObject({ metrics: [{ value: true }] });
    expect(scoreExactMatch('forty-two', 42)).toEqual(
      result(false, 'The output differs from the expected value.'),
    );
    expect(scoreExactMatch('{"a":2}', { a: 1 })).toMatchObject({ metrics: [{ value: false }] });
    // two strings are compared as strings, never as JSON
    expect(scoreExactMatch('{"a":1}', '{ "a": 1 }')).toMatchObject({ metrics: [{ value: false }] });
  });
});
