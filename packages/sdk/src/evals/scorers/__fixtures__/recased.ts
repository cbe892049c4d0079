/**
 * A property-test generator of the case-insensitive scorers' tests. Not part of the package's
 * public API.
 * @module
 */
import fc from 'fast-check';

/** Random upper/lower casing of each code point of `text`. */
export function recased(text: string): fc.Arbitrary<string> {
  const length = [...text].length;
  return fc
    .array(fc.boolean(), { minLength: length, maxLength: length })
    .map((upper) =>
      [...text]
        .map((character, index) => (upper[index] ? character.toUpperCase() : character.toLowerCase()))
        .join(''),
    );
}
