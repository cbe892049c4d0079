import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { integerText, parseKeepingIntegers } from './json-integers.js';

describe('64-bit integers sent as JSON numbers', () => {
  it.each([
    ['1152921504606846977', '1152921504606846977'],
    ['-9223372036854775808', '-9223372036854775808'],
    ['1.5e3', '1500'],
    ['1.763740801000000003e18', '1763740801000000003'],
    ['1e19', '10000000000000000000'],
    ['12.50e1', '125'],
    ['9007199254740993.0', '9007199254740993'],
  ])('read %s as the integer %s', (source, text) => {
    expect(integerText(source)).toBe(text);
  });

  it.each(['9007199254740993.5', '1.25e1', '0.1'])('find no integer in %s', (source) => {
    expect(integerText(source)).toBeUndefined();
  });

  it('give every integer its exact decimal, however JSON writes it', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), fc.nat({ max: 6 }), (n, shift) => {
        const digits = (n < 0n ? -n : n).toString();
        const sign = n < 0n ? '-' : '';
        // The same integer with its decimal point moved left by `shift` and an exponent making up.
        const padded = digits.padStart(shift + 1, '0');
        const mantissa = shift === 0 ? padded : `${padded.slice(0, -shift)}.${padded.slice(-shift)}`;
        const expected = n === 0n ? (sign === '-' ? '-0' : '0') : n.toString();
        expect(integerText(`${sign}${mantissa}e${shift}`)?.replace(/^(-?)0+(?=\d)/, '$1')).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('are kept as their text under the 64-bit integer members only', () => {
    const parsed = parseKeepingIntegers(
      '{"intValue":1152921504606846977,"startTimeUnixNano":17637408000000000001,' +
        '"doubleValue":1152921504606846977,"small":{"intValue":42},"other":18446744073709551615}',
    );
    expect(parsed).toEqual({
      intValue: '1152921504606846977',
      startTimeUnixNano: '17637408000000000001',
      doubleValue: Number('1152921504606846977'),
      small: { intValue: 42 },
      other: Number('18446744073709551615'),
    });
  });

  it('give up, without failing, on a body nesting deeper than the reviver can walk', () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    expect(parseKeepingIntegers(`{"intValue":9007199254740993,"junk":${deep}}`)).toBeUndefined();
  });
});
