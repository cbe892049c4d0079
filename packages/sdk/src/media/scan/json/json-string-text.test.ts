import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecodedPositionMap, decodeKey, decodeStringNode, findMember } from './json-string-text.js';
import { tokenizeJson } from './tokenize-json.js';

function root(text: string) {
  const result = tokenizeJson(text);
  if (!result.ok) throw new Error(result.reason);
  return result.root;
}

describe('JSON string literals in a text', () => {
  it('decodes strings and keys, and finds members by name', () => {
    const text = '{"plain":"a","esc\\u0061ped":"b\\n","type":"x"}';
    const object = root(text);
    expect(decodeStringNode(text, object.children![0]!)).toBe('a');
    expect(decodeStringNode(text, object.children![1]!)).toBe('b\n');
    expect(decodeKey(text, object, 1)).toBe('escaped');
    expect(findMember(text, object, 'type')).toBe(2);
    expect(findMember(text, object, 'typ')).toBe(-1);
  });

  it('does not decode invalid escapes or raw control characters', () => {
    const text = '["\\x", "a\u0001b"]';
    const array = root(text);
    expect(decodeStringNode(text, array.children![0]!)).toBeUndefined();
    expect(decodeStringNode(text, array.children![1]!)).toBe('a\u0001b');
    const escaped = '["\\n\u0001"]';
    expect(decodeStringNode(escaped, root(escaped).children![0]!)).toBeUndefined();
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
