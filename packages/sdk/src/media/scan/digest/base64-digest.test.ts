import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SLICE_BYTES } from '../../media-types.js';
import { BASE64_SLICE_UNITS, base64Slices, decodedLength, digestBase64 } from './base64-digest.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const digestOf = (text: string) => digestBase64(text, 0, text.length);

describe('digestBase64', () => {
  it('hashes standard and URL-safe base64, padded or not, like the decoded bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 200 }), (bytes) => {
        const expected = { sha256: sha256(bytes), size: bytes.length };
        const standard = Buffer.from(bytes).toString('base64');
        for (const text of [
          standard,
          standard.replace(/=+$/, ''),
          Buffer.from(bytes).toString('base64url'),
        ]) {
          expect(digestOf(text)).toMatchObject(expected);
        }
      }),
    );
  });

  it('hashes a range of a larger text slice by slice', () => {
    const bytes = randomBytes(2 * SLICE_BYTES + 5);
    const text = `xx"${bytes.toString('base64')}"yy`;
    const digest = digestBase64(text, 3, text.length - 3);
    expect(digest).toEqual({
      sha256: sha256(bytes),
      size: bytes.length,
      head: new Uint8Array(bytes.subarray(0, 16)),
    });
    const slices = [...base64Slices(text, 3, text.length - 3)];
    expect(slices.map((slice) => slice.length)).toEqual([SLICE_BYTES - 1, SLICE_BYTES - 1, 7]);
    expect(Buffer.concat(slices).equals(bytes)).toBe(true);
    expect(BASE64_SLICE_UNITS % 4).toBe(0);
  });

  it.each([
    ['empty', ''],
    ['one unit too many', 'QUJDR'],
    ['whitespace', 'QUJD REVG'],
    ['a line break', 'QUJD\nREVG'],
    ['a character outside the alphabet', 'QUJD*EVG'],
    ['padding inside', 'QQ==QUJD'],
    ['too much padding', 'QUJDRA==='],
    ['padding on a full group', 'QUJD='],
    ['non-Latin-1 characters', 'QUJD\u4e00EVG'],
    ['a lone surrogate', 'QUJD\ud800EVG'],
    ['Latin-1 letters', 'QUJDéEVG'],
  ])('is undefined for %s', (_name, text) => {
    expect(digestOf(text)).toBeUndefined();
  });

  it('finds an invalid character in a later slice', () => {
    const text = `${Buffer.alloc(SLICE_BYTES * 2)
      .toString('base64')
      .slice(0, BASE64_SLICE_UNITS + 8)}!AAA`;
    expect(digestOf(text)).toBeUndefined();
    expect(() => [...base64Slices(text, 0, text.length)]).toThrow(RangeError);
  });

  it('counts decoded bytes', () => {
    expect([0, 2, 3, 4, 6, 7, 8].map(decodedLength)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});
