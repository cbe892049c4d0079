import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createAt,
  escapeToken,
  formatPointer,
  getAt,
  type JsonValue,
  PointerSyntaxError,
  parsePointer,
  removeAt,
  replaceAt,
} from './json-pointer.js';

// RFC 6901, section 5: the example document and what each pointer names.
const RFC_DOCUMENT: JsonValue = {
  foo: ['bar', 'baz'],
  '': 0,
  'a/b': 1,
  'c%d': 2,
  'e^f': 3,
  'g|h': 4,
  'i\\j': 5,
  'k"l': 6,
  ' ': 7,
  'm~n': 8,
};

describe('JSON pointers (RFC 6901)', () => {
  it.each([
    ['', RFC_DOCUMENT],
    ['/foo', ['bar', 'baz']],
    ['/foo/0', 'bar'],
    ['/', 0],
    ['/a~1b', 1],
    ['/c%d', 2],
    ['/e^f', 3],
    ['/g|h', 4],
    ['/i\\j', 5],
    ['/k"l', 6],
    ['/ ', 7],
    ['/m~0n', 8],
  ])('%j names what the RFC says', (pointer, expected) => {
    expect(getAt(RFC_DOCUMENT, parsePointer(pointer))).toEqual(expected);
  });

  it('decodes ~01 as "~1" (~1 first would give "/")', () => {
    expect(parsePointer('/~01')).toEqual(['~1']);
  });

  it.each(['foo', '#/foo', '/a~', '/a~2', '/~x'])('refuses %j', (pointer) => {
    expect(() => parsePointer(pointer)).toThrow(PointerSyntaxError);
  });

  it('reads own properties only, never inherited ones', () => {
    const state = JSON.parse('{"a":{}}') as JsonValue;
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(getAt(state, ['a', name])).toBeUndefined();
      expect(getAt(state, [name])).toBeUndefined();
    }
  });

  it('reads array items by index only: no leading zero, no sign, no "-", nothing past the end', () => {
    const state: JsonValue = { list: ['a', 'b'] };
    expect(getAt(state, ['list', '1'])).toBe('b');
    for (const token of ['01', '-1', '+1', '1.0', '-', '2', 'length']) {
      expect(getAt(state, ['list', token])).toBeUndefined();
    }
  });

  it('creates a property, refuses one that exists and a location whose parent is missing', () => {
    const state: JsonValue = { orders: {} };
    const created = createAt(state, ['orders', 'o1'], { total: 3 });
    expect(created).toEqual({ ok: true, root: { orders: { o1: { total: 3 } } } });
    expect(state).toEqual({ orders: {} });
    if (!created.ok) throw new Error('created');
    expect(createAt(created.root, ['orders', 'o1'], 1)).toEqual({ ok: false, failure: 'exists' });
    expect(createAt(state, ['customers', 'c1'], 1)).toEqual({ ok: false, failure: 'missing_parent' });
    expect(createAt(state, ['orders', 'o1', 'x'], 1)).toEqual({ ok: false, failure: 'missing_parent' });
    expect(createAt(state, [], 1)).toEqual({ ok: false, failure: 'root' });
  });

  it('appends with "-", inserts at an index up to the length, refuses other positions', () => {
    const state: JsonValue = { list: ['a', 'b'] };
    expect(createAt(state, ['list', '-'], 'c')).toEqual({ ok: true, root: { list: ['a', 'b', 'c'] } });
    expect(createAt(state, ['list', '0'], 'z')).toEqual({ ok: true, root: { list: ['z', 'a', 'b'] } });
    expect(createAt(state, ['list', '2'], 'c')).toEqual({ ok: true, root: { list: ['a', 'b', 'c'] } });
    for (const token of ['3', '01', '-1', 'x']) {
      expect(createAt(state, ['list', token], 'c')).toEqual({ ok: false, failure: 'bad_index' });
    }
  });

  it('replaces and removes what exists; "-" and positions past the end are refused', () => {
    const state: JsonValue = { list: ['a', 'b'], n: 1 };
    expect(replaceAt(state, ['n'], 2)).toEqual({ ok: true, root: { list: ['a', 'b'], n: 2 } });
    expect(replaceAt(state, ['m'], 2)).toEqual({ ok: false, failure: 'not_found' });
    expect(replaceAt(state, ['list', '2'], 'c')).toEqual({ ok: false, failure: 'not_found' });
    expect(replaceAt(state, ['list', '-'], 'c')).toEqual({ ok: false, failure: 'bad_index' });
    expect(removeAt(state, ['list', '0'])).toEqual({ ok: true, root: { list: ['b'], n: 1 } });
    expect(removeAt(state, ['gone'])).toEqual({ ok: false, failure: 'not_found' });
    expect(removeAt(state, [])).toEqual({ ok: false, failure: 'root' });
    expect(state).toEqual({ list: ['a', 'b'], n: 1 });
  });

  it('writes a key named __proto__ as a plain property, never the prototype', () => {
    const state = {} as JsonValue;
    const outcome = createAt(state, ['__proto__'], { polluted: true });
    if (!outcome.ok) throw new Error('created');
    const root = outcome.root as Record<string, JsonValue>;
    expect(Object.getPrototypeOf(root)).toBe(Object.prototype);
    expect(Object.hasOwn(root, '__proto__')).toBe(true);
    expect(JSON.stringify(root)).toBe('{"__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const replaced = replaceAt(JSON.parse('{"__proto__":1}') as JsonValue, ['__proto__'], 2);
    expect(replaced.ok && JSON.stringify(replaced.root)).toBe('{"__proto__":2}');
  });

  it('escapes and parses back any token (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), (tokens) => {
        expect(parsePointer(formatPointer(tokens))).toEqual(tokens);
        for (const token of tokens) expect(escapeToken(token)).not.toContain('/');
      }),
    );
  });

  it('a write changes only its location and never the given state (property)', () => {
    const json = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<JsonValue>;
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 4 }), json, { maxKeys: 5 }),
        fc.string({ maxLength: 4 }),
        json,
        (state, key, value) => {
          const before = JSON.stringify(state);
          const outcome = Object.hasOwn(state, key)
            ? replaceAt(state, [key], value)
            : createAt(state, [key], value);
          expect(JSON.stringify(state)).toBe(before);
          if (!outcome.ok) throw new Error(outcome.failure);
          const root = outcome.root as Record<string, JsonValue>;
          expect(getAt(root, [key])).toEqual(value);
          for (const other of Object.keys(state).filter((name) => name !== key)) {
            expect(root[other]).toEqual(state[other]);
          }
          const removed = removeAt(root, [key]);
          if (!removed.ok) throw new Error(removed.failure);
          expect(getAt(removed.root, [key])).toBeUndefined();
        },
      ),
    );
  });
});
