import { mediaTypeOfFileName } from '@svc-run/conventions';
import { describe, expect, it } from 'vitest';
import { sniffMediaType } from './sniff-media-type.js';

const bytes = (hex: string) => new Uint8Array(Buffer.from(hex.replace(/ /g, ''), 'hex'));
const ascii = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));

describe('recognizing formats', () => {
  it.each([
    ['image/png', bytes('89 50 4e 47 0d 0a 1a 0a 00')],
    ['image/jpeg', bytes('ff d8 ff e0')],
    ['image/gif', ascii('GIF89a..')],
    ['image/webp', ascii('RIFF\0\0\0\0WEBPVP8 ')],
    ['audio/wav', ascii('RIFF\0\0\0\0WAVEfmt ')],
    ['application/pdf', ascii('%PDF-1.7')],
    ['audio/mpeg', ascii('ID3\u0004')],
    ['audio/mpeg', bytes('ff fb 90 00')],
    ['audio/aac', bytes('ff f1 50 80')],
    ['audio/flac', ascii('fLaC')],
    ['audio/ogg', ascii('OggS')],
    ['video/mp4', ascii('\0\0\0\u0018ftypmp42')],
    ['video/webm', bytes('1a 45 df a3')],
  ])('sniffs %s', (type, head) => {
    expect(sniffMediaType(head)).toBe(type);
  });

  it('does not guess other bytes', () => {
    expect(sniffMediaType(ascii('hello world'))).toBeUndefined();
    expect(sniffMediaType(ascii('XXXX\0\0\0\0WEBP'))).toBeUndefined();
    expect(sniffMediaType(new Uint8Array())).toBeUndefined();
  });

  it('types file names by extension', () => {
    expect(mediaTypeOfFileName('Report.PDF')).toBe('application/pdf');
    expect(mediaTypeOfFileName('notes.md')).toBe('text/markdown');
    expect(mediaTypeOfFileName('archive')).toBeUndefined();
    expect(mediaTypeOfFileName('x.')).toBeUndefined();
    expect(mediaTypeOfFileName('x.toString')).toBeUndefined();
    expect(mediaTypeOfFileName(undefined)).toBeUndefined();
  });
});
