import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseNonBlank, parsePort } from './option-parsers.js';

describe('parsePort', () => {
  it.each([
    ['0', 0],
    ['80', 80],
    ['4318', 4318],
    ['65535', 65535],
    ['08080', 8080],
  ])('accepts %j as %d', (text, port) => {
    expect(parsePort(text)).toBe(port);
  });

  it.each(['', ' 80', '80 ', '-1', '+80', '65536', '99999', '123456', '1.5', '1e3', '0x10', 'http', 'NaN'])(
    'rejects %j as a usage error',
    (text) => {
      expect(() => parsePort(text)).toThrow(InvalidArgumentError);
      expect(() => parsePort(text)).toThrow('Expected an integer from 0 to 65535.');
    },
  );
});

describe('parseNonBlank', () => {
  it('returns a nonblank value unchanged', () => {
    expect(parseNonBlank('::1')).toBe('::1');
    expect(parseNonBlank(' data dir ')).toBe(' data dir ');
  });

  it.each(['', ' ', '\t\n'])('rejects %j', (text) => {
    expect(() => parseNonBlank(text)).toThrow(InvalidArgumentError);
  });
});
