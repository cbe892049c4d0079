import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SOURCE_DIGEST_PATTERN, sourceDigest } from './source-digest.js';

describe('sourceDigest', () => {
  it('declares the SHA-256 of the source as sha256:<64 lowercase hex>', () => {
    expect(sourceDigest('test')).toBe(
      'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    );
    expect(sourceDigest(new Uint8Array([0x74, 0x65, 0x73, 0x74]))).toBe(sourceDigest('test'));
    expect(sourceDigest(Buffer.from('test'))).toBe(sourceDigest('test'));
  });

  it('hashes a string as its UTF-8 bytes, without normalizing anything', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, unit: 'grapheme' }), (source) => {
        const digest = sourceDigest(source);
        expect(digest).toMatch(SOURCE_DIGEST_PATTERN);
        expect(digest).toBe(
          `sha256:${createHash('sha256').update(Buffer.from(source, 'utf8')).digest('hex')}`,
        );
      }),
    );
    expect(sourceDigest('a\r\n')).not.toBe(sourceDigest('a\n'));
    expect(sourceDigest('é')).not.toBe(sourceDigest('e\u0301'));
  });

  it('refuses what is not source code with a TypeError naming the option', () => {
    const rule = "source must be a nonempty string or Uint8Array (the scorer's source code); got";
    expect(() => sourceDigest('')).toThrow(new TypeError(`${rule} an empty string`));
    expect(() => sourceDigest(new Uint8Array())).toThrow(new TypeError(`${rule} an empty Uint8Array`));
    expect(() => sourceDigest(42 as unknown as string)).toThrow(new TypeError(`${rule} 42`));
    expect(() => sourceDigest(new ArrayBuffer(4) as unknown as string)).toThrow(
      new TypeError(`${rule} an object`),
    );
  });
});
