import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { childrenOf } from '../test-support.js';
import { DecodedPositionMap, decodeKey, decodeStringNode, findMember } from './json-string-text.js';
import { ROOT } from './json-tape.js';
import { tokenizeJson } from './tokenize-json.js';

function tape(text: string) {
  const result = tokenizeJson(text);
  if (!result.ok) throw new Error(result.reason);
  return result.tape;
}

describe('JSON string literals in a text', () => {
  it('decodes strings and keys, and finds members by name', () => {
    const text = '{"plain":"a","esc\\u0061ped":"b\\n","type":"x"}';
    const object = tape(text);
    const [plain, escaped, type] = childrenOf(object, ROOT);
    expect(decodeStringNode(object, plain!)).toBe('a');
    expect(decodeStringNode(object, escaped!)).toBe('b\n');
    expect(decodeKey(object, plain!)).toBe('plain');
    expect(decodeKey(object, escaped!)).toBe('escaped');
    expect(findMember(object, ROOT, 'type')).toBe(type);
    expect(findMember(object, ROOT, 'typ')).toBe(-1);
    // Not an object: no members
    expect(findMember(object, plain!, 'type')).toBe(-1);
  });

  it('does not decode invalid escapes or raw control characters', () => {
    const text = '["\\x", "a\u0001b"]';
    const array = tape(text);
    const [invalid, raw] = childrenOf(array, ROOT);
    expect(decodeStringNode(array, invalid!)).toBeUndefined();
    expect(decodeStringNode(array, raw!)).toBe('a\u0001b');
    const escaped = tape('["\\n\u0001"]');
    expect(decodeStringNode(escaped, childrenOf(escaped, ROOT)[0]!)).toBeUndefined();
  });

  it('maps decoded positions back into the literal', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.nat(), fc.nat(), (value, a, b) => {
        const literal = JSON.stringify(value);
        const from = Math.min(a, b) % (value.length + 1);
        const to = Math.max(a, b) % (value.length + 1);
        const [start, end] = [Math.min(from, to), Math.max(from, to)];
        const map = new DecodedPositionMap(literal, 1, literal.length - 1);
        const rawStart = map.map(start);
        const rawEnd = map.map(end);
        expect(JSON.parse(`"${literal.slice(rawStart, rawEnd)}"`)).toBe(value.slice(start, end));
      }),
    );
  });
});
