import { describe, expect, it } from 'vitest';
import { childPointer, replaceAtPointers } from './json-pointer.js';

describe('replaceAtPointers', () => {
  it('copies only the containers on the way and never modifies the input', () => {
    const input = { messages: [{ parts: [{ type: 'blob' }, { type: 'text' }] }], other: { kept: true } };
    const snapshot = structuredClone(input);
    const output = replaceAtPointers(input, [
      ['/messages/0/parts/0', 'A'],
      ['/messages/0/parts/1/type', 'B'],
    ]) as typeof input;
    expect(output).toEqual({ messages: [{ parts: ['A', { type: 'B' }] }], other: { kept: true } });
    expect(input).toEqual(snapshot);
    expect(output.other).toBe(input.other);
    expect(output.messages).not.toBe(input.messages);
  });

  it('escapes ~ and / when extending a pointer', () => {
    expect(childPointer(childPointer('', 'a/b'), 'm~n')).toBe('/a~1b/m~0n');
    expect(childPointer('/list', 3)).toBe('/list/3');
  });

  it('unescapes ~0 and ~1 in pointers', () => {
    const output = replaceAtPointers({ 'a/b': { 'm~n': 1 } }, [['/a~1b/m~0n', 2]]);
    expect(output).toEqual({ 'a/b': { 'm~n': 2 } });
  });

  it('replaces the whole value for the empty pointer', () => {
    expect(replaceAtPointers({ a: 1 }, [['', 'whole']])).toBe('whole');
  });

  it('skips pointers that name no existing place', () => {
    const input = { list: [1, 2], text: 'x' };
    const output = replaceAtPointers(input, [
      ['/list/2', 'past the end'],
      ['/list/-', 'append'],
      ['/missing/0', 'none'],
      ['/text/0', 'inside a string'],
      ['no-slash', 'malformed'],
    ]);
    expect(output).toBe(input);
  });
});
