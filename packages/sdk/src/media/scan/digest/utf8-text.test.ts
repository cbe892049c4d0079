import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digestUtf8, isWellFormedText, utf8Prefix } from './utf8-text.js';

describe('UTF-8 text', () => {
  it('digests the UTF-8 encoding, also of strings longer than one chunk', () => {
    for (const text of [
      '',
      'héllo 😀',
      `${'a'.repeat(1024 * 1024 - 1)}😀${'b'.repeat(10)}`,
      'lone \ud800 surrogate',
    ]) {
      const bytes = Buffer.from(text, 'utf8');
      expect(digestUtf8(text)).toEqual({
        sha256: createHash('sha256').update(bytes).digest('hex'),
        size: bytes.length,
      });
    }
  });

  it('keeps the longest prefix within the byte budget, never splitting a character', () => {
    expect(utf8Prefix('abc', 2)).toBe('ab');
    expect(utf8Prefix('aé', 2)).toBe('a');
    expect(utf8Prefix('a😀', 4)).toBe('a');
    expect(utf8Prefix('a😀', 5)).toBe('a😀');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.nat(64), (text, budget) => {
        const prefix = utf8Prefix(text, budget);
        expect(text.startsWith(prefix)).toBe(true);
        expect(Buffer.byteLength(prefix)).toBeLessThanOrEqual(budget);
        if (prefix.length < text.length) {
          const next = text.codePointAt(prefix.length)!;
          const width = next < 0x80 ? 1 : next < 0x800 ? 2 : next > 0xffff ? 4 : 3;
          expect(Buffer.byteLength(prefix) + width).toBeGreaterThan(budget);
        }
      }),
    );
  });

  it('tells well-formed text', () => {
    expect(isWellFormedText('a😀b')).toBe(true);
    expect(isWellFormedText('a\ud800b')).toBe(false);
    expect(isWellFormedText('\udc00')).toBe(false);
    expect(isWellFormedText('\ud83d')).toBe(false);
  });
});
