import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPointer, getAt, type JsonValue } from './json-pointer.js';
import { fillPointer, fillValue, pointerPlaceholders, valueReferences } from './templates.js';

describe('pointer templates', () => {
  it('fills each placeholder with its argument as one escaped token', () => {
    expect(fillPointer('/orders/{id}/items/{n}', { id: 'o-1', n: 2 })).toEqual({
      ok: true,
      tokens: ['orders', 'o-1', 'items', '2'],
    });
    expect(fillPointer('/orders/{id}', { id: '../a/b~c' })).toEqual({
      ok: true,
      tokens: ['orders', '../a/b~c'],
    });
    expect(pointerPlaceholders('/a/{x}/b{y}')).toEqual(['x', 'y']);
  });

  it('says which argument is missing, or cannot name a location', () => {
    expect(fillPointer('/orders/{id}', {})).toEqual({
      ok: false,
      gap: { argument: 'id', reason: 'missing' },
    });
    for (const id of [1.5, true, null, ['a'], { a: 1 }, 2 ** 60]) {
      expect(fillPointer('/orders/{id}', { id: id as JsonValue })).toEqual({
        ok: false,
        gap: { argument: 'id', reason: 'not_a_name' },
      });
    }
  });

  it('never leaves the template prefix, whatever the argument (property)', () => {
    fc.assert(
      fc.property(fc.string(), (id) => {
        const filled = fillPointer('/orders/{id}', { id });
        if (!filled.ok) throw new Error('filled');
        expect(filled.tokens).toEqual(['orders', id]);
        const state: JsonValue = { orders: { [id]: 'mine' }, secret: 'not reachable' };
        expect(getAt(state, filled.tokens)).toBe('mine');
        expect(formatPointer(filled.tokens).startsWith('/orders/')).toBe(true);
      }),
    );
  });
});

describe('value templates', () => {
  it('puts argument values in place, typed, and leaves out properties of absent arguments', () => {
    const template = {
      id: { $arg: 'id' },
      amount: { $arg: 'amount' },
      note: { $arg: 'note' },
      status: 'open',
    };
    expect(fillValue(template, { id: 'r1', amount: 12.5 })).toEqual({
      ok: true,
      value: { id: 'r1', amount: 12.5, status: 'open' },
    });
    expect(fillValue({ $arg: 'all' }, { all: { nested: [1] } })).toEqual({
      ok: true,
      value: { nested: [1] },
    });
    expect(valueReferences(template)).toEqual(['id', 'amount', 'note']);
  });

  it('an absent argument outside an object property is an error', () => {
    expect(fillValue([{ $arg: 'x' }], {})).toEqual({ ok: false, gap: { argument: 'x', reason: 'missing' } });
    expect(fillValue({ $arg: 'x' }, {})).toEqual({ ok: false, gap: { argument: 'x', reason: 'missing' } });
  });

  it('keeps objects that merely mention $arg with other keys as they are', () => {
    expect(fillValue({ $arg: 'x', other: 1 }, { x: 2 })).toEqual({
      ok: true,
      value: { $arg: 'x', other: 1 },
    });
  });
});
