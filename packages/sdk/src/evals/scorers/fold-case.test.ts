import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recased } from './__fixtures__/recased.js';
import { foldCase } from './fold-case.js';

describe('foldCase', () => {
  it('folds every casing of a text alike', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }).chain((text) => fc.tuple(fc.constant(text), recased(text))),
        ([text, other]) => foldCase(text) === foldCase(other),
      ),
    );
  });

  it('folds a concatenation as the concatenation of the folds', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.string({ unit: 'binary' }),
        (left, right) => foldCase(left + right) === foldCase(left) + foldCase(right),
      ),
    );
  });

  it('folds the cases that lowercasing alone misses', () => {
    expect(foldCase('STRASSE')).toBe(foldCase('straße'));
    expect(foldCase('ẞ')).toBe(foldCase('ß'));
    expect(foldCase('ΟΔΟΣ')).toBe(foldCase('οδος'));
    expect(foldCase('ΟΔΟΣ')).toBe(foldCase('οδoς'.replace('o', 'ο')));
    expect(foldCase('Hello, World')).toBe('hello, world');
    expect(foldCase('ﬁ')).not.toBe(foldCase('x'));
  });
});
