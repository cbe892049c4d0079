import { describe, expect, it } from 'vitest';
import { parseDataUrl, percentDecode, startsWithDataScheme } from './data-url.js';

const parse = (text: string) => parseDataUrl(text, 0, text.length);

describe('data: URLs', () => {
  it('parses the header and leaves the data in place', () => {
    expect(parse('data:image/png;base64,AAAA')).toEqual({
      mediaType: 'image/png',
      base64: true,
      dataStart: 22,
    });
    expect(parse('DATA:text/plain;charset=utf-8,hi')).toEqual({
      mediaType: 'text/plain;charset=utf-8',
      base64: false,
      dataStart: 30,
    });
    expect(parse('data:application/pdf;name=Q3%20report.pdf;BASE64,AAAA')).toMatchObject({
      mediaType: 'application/pdf;name=Q3%20report.pdf',
      base64: true,
      name: 'Q3 report.pdf',
    });
    expect(parse('data:application/pdf;name=%E0;base64,AAAA')?.name).toBeUndefined();
  });

  it('is undefined without a media type, a comma, or a short header', () => {
    for (const text of [
      'data:,hi',
      'data:;base64,AAAA',
      'data:image/png;base64',
      'data:image;base64,AA',
      'image/png,x',
    ]) {
      expect(parse(text)).toBeUndefined();
    }
    expect(parse(`data:image/png;${'x=y;'.repeat(300)}base64,AAAA`)).toBeUndefined();
    expect(parseDataUrl('data:image/png,abc', 0, 10)).toBeUndefined();
  });

  it('percent-decodes bytes and UTF-8 encodes other characters', () => {
    const text = 'data:text/plain,%41é%zz%4';
    expect(Buffer.from(percentDecode(text, 16, text.length))).toEqual(Buffer.from('Aé%zz%4', 'utf8'));
  });

  it('tells the data: scheme in any case at a position, and nothing else', () => {
    for (const scheme of ['data:', 'DATA:', 'dAtA:', 'Data:']) {
      expect(startsWithDataScheme(`${scheme}x`, 0)).toBe(true);
      expect(startsWithDataScheme(`["${scheme}`, 2)).toBe(true);
    }
    for (const text of ['data', 'data;', 'dat:', 'date:', ' data:', 'dáta:', 'data\\u003a', '']) {
      expect(startsWithDataScheme(text, 0)).toBe(false);
    }
    expect(startsWithDataScheme('"data:', 0)).toBe(false);
    expect(startsWithDataScheme('data:', 1)).toBe(false);
  });
});
