import { describe, expect, it } from 'vitest';
import { jsonText } from './json-text.js';
import { MalformedExportError } from './malformed-export-error.js';

const ascii = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));

describe('the text of an OTLP JSON body', () => {
  it('is the body itself when it holds no surrogate escape', () => {
    const body = ascii('{"a":"\\u00e9 \\\\ud800 \\"x\\""}');
    expect(jsonText(body, true)).toBe('{"a":"\\u00e9 \\\\ud800 \\"x\\""}');
  });

  it('writes U+FFFD for an unpaired surrogate escape, in the text and in an ASCII body', () => {
    const source = String.raw`{"lone":"\ud83d","low":"\uDC00","pair":"\ud83d\ude00","escaped":"\\ud800","after":"\\\ud800"}`;
    const body = ascii(source);
    const text = jsonText(body, true);
    expect(JSON.parse(text)).toEqual({
      lone: '\ufffd',
      low: '\ufffd',
      pair: '\u{1f600}',
      escaped: '\\ud800',
      after: '\\\ufffd',
    });
    // The escapes keep their length: the body's bytes, which the writer may store as they are, too.
    expect(Buffer.from(body).toString('latin1')).toBe(text);
  });

  it('refuses a body that is not UTF-8, naming no content', () => {
    const body = new Uint8Array(
      Buffer.concat([Buffer.from('{"a":"secret'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]),
    );
    expect(() => jsonText(body, false)).toThrow(MalformedExportError);
    expect(() => jsonText(body, false)).toThrow('Request body is not valid UTF-8.');
    expect(jsonText(new Uint8Array(Buffer.from('{"a":"é\\ud800"}')), false)).toBe('{"a":"é\\ufffd"}');
  });
});
