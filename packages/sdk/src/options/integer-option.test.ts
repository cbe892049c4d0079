import { describe, expect, it } from 'vitest';
import { validateIntegerOption } from './integer-option.js';

const range = { min: 1, max: 16, fallback: 4 };
const show = (value: unknown) => `<${String(value)}>`;

describe('validateIntegerOption', () => {
  it('takes the default when unset and an integer within the range as given', () => {
    expect(validateIntegerOption('concurrency', undefined, range, show)).toBe(4);
    expect(validateIntegerOption('concurrency', 1, range, show)).toBe(1);
    expect(validateIntegerOption('concurrency', 16, range, show)).toBe(16);
  });

  it.each([0, 17, 2.5, Number.NaN, Number.POSITIVE_INFINITY, '8', null, 8n])(
    'refuses %s, naming the option, the range and the value as the caller shows it',
    (value) => {
      expect(() => validateIntegerOption('concurrency', value, range, show)).toThrow(
        new TypeError(`concurrency must be an integer from 1 to 16; got <${String(value)}>`),
      );
    },
  );
});
