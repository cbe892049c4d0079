import { describe, expect, it } from 'vitest';
import { isTextualMediaType, mediaTypeEssence, mediaTypeParameters, modalityOf } from './media-type.js';

describe('media types', () => {
  it('reads the lowercase essence and the parameters', () => {
    expect(mediaTypeEssence('Image/PNG')).toBe('image/png');
    expect(mediaTypeEssence(' text/plain ; charset=utf-8')).toBe('text/plain');
    expect(mediaTypeParameters('audio/L16; Rate=16000;channels="2"')).toEqual(
      new Map([
        ['rate', '16000'],
        ['channels', '2'],
      ]),
    );
    for (const bad of [
      'image',
      '/png',
      'image/',
      'ima ge/png',
      'image/png/x',
      '',
      42,
      undefined,
      'a/'.repeat(200),
    ]) {
      expect(mediaTypeEssence(bad)).toBeUndefined();
    }
  });

  it('tells text from binary', () => {
    for (const text of [
      'text/plain',
      'text/csv',
      'application/json',
      'application/vnd.api+json',
      'application/xml',
    ]) {
      expect(isTextualMediaType(text)).toBe(true);
    }
    for (const binary of ['image/svg+xml', 'application/pdf', 'application/octet-stream', 'audio/wav']) {
      expect(isTextualMediaType(binary)).toBe(false);
    }
  });

  it('maps media types to modalities', () => {
    expect(
      ['image/png', 'audio/pcm;rate=8000', 'video/mp4', 'application/pdf', 'nonsense'].map(modalityOf),
    ).toEqual(['image', 'audio', 'video', 'document', 'document']);
  });
});
