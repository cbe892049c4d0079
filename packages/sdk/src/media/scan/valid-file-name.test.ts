import { describe, expect, it } from 'vitest';
import { validFileName } from './valid-file-name.js';

describe('validFileName', () => {
  it('returns valid names as given', () => {
    for (const name of ['report.pdf', ' padded.txt ', 'é😀.png', 'x'.repeat(256)])
      expect(validFileName(name)).toBe(name);
  });

  it.each([
    ['a non-string', 42],
    ['an empty name', ''],
    ['a blank name', ' \t '.replace('\t', ' ')],
    ['257 code units', 'x'.repeat(257)],
    ['a control character', 'a\u0001b'],
    ['a line break', 'a\nb'],
    ['DEL', 'a\u007fb'],
    ['a lone surrogate', 'a\ud800'],
  ])('rejects %s', (_case, name) => {
    expect(validFileName(name)).toBeUndefined();
  });
});
