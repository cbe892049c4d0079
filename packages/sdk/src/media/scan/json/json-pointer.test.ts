import { describe, expect, it } from 'vitest';
import { escapePointerToken, formatPointer, parsePointer } from './json-pointer.js';

describe('JSON pointers', () => {
  it('escapes ~ and / and reads them back', () => {
    expect(escapePointerToken('a/b~c')).toBe('a~1b~0c');
    expect(formatPointer(['messages', 0, 'a/b', '~'])).toBe('/messages/0/a~1b/~0');
    expect(formatPointer([])).toBe('');
    expect(parsePointer('/messages/0/a~1b/~0~1')).toEqual(['messages', '0', 'a/b', '~/']);
    expect(parsePointer('')).toEqual([]);
    expect(parsePointer('messages')).toBeUndefined();
  });
});
