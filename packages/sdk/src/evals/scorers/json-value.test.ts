import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findNonJson, jsonEqual, MAX_JSON_DEPTH } from './json-value.js';

describe('findNonJson', () => {
  it('accepts JSON values, null-prototype objects and properties valued undefined', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => findNonJson(value) === undefined));
    expect(findNonJson(Object.assign(Object.create(null), { a: [1, 'x', null, true] }))).toBeUndefined();
    expect(findNonJson({ a: undefined, b: 1 })).toBeUndefined();
    const shared = { x: 1 };
    expect(findNonJson([shared, shared])).toBeUndefined();
  });

  it('names what is not JSON without showing it', () => {
    const circular: Record<string, unknown> = { secret: 'do not show' };
    circular.self = circular;
    expect(findNonJson({ a: [1, 2n] })).toBe('a bigint');
    expect(findNonJson(undefined)).toBe('undefined');
    expect(findNonJson([1, undefined])).toBe('undefined');
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point
    expect(findNonJson([1, , 3])).toBe('an array with holes');
    expect(findNonJson({ f: () => 1 })).toBe('a function');
    expect(findNonJson({ s: Symbol('x') })).toBe('a symbol');
    expect(findNonJson(Number.NaN)).toBe('a non-finite number');
    expect(findNonJson([Number.POSITIVE_INFINITY])).toBe('a non-finite number');
    expect(findNonJson({ when: new Date(0) })).toBe('an object of class Date');
    expect(findNonJson(new Map())).toBe('an object of class Map');
    expect(findNonJson(circular)).toBe('a circular reference');
  });

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH} levels`, () => {
    let deep: unknown = 'leaf';
    for (let level = 0; level < MAX_JSON_DEPTH; level += 1) deep = level % 2 === 0 ? [deep] : { deep };
    expect(findNonJson(deep)).toBeUndefined();
    expect(findNonJson([deep])).toBe(`nesting deeper than ${MAX_JSON_DEPTH} levels`);
  });
});

describe('jsonEqual', () => {
  it('is true for a value and its JSON round trip', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => jsonEqual(value, JSON.parse(JSON.stringify(value)))));
  });

  it('agrees with equality of JSON text when object keys are sorted', () => {
    const sorted = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(sorted)
        : typeof value === 'object' && value !== null
          ? Object.fromEntries(
              Object.keys(value)
                .sort()
                .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
            )
          : value;
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (left, right) => {
        expect(jsonEqual(left, right)).toBe(JSON.stringify(sorted(left)) === JSON.stringify(sorted(right)));
      }),
    );
  });

  it('ignores key order and undefined-valued properties, not array order or types', () => {
    expect(jsonEqual({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual({ a: 1 }, { b: 1 })).toBe(false);
    expect(jsonEqual('1', 1)).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual(0, -0)).toBe(true);
  });
});
