import { describe, expect, it } from 'vitest';
import { PCM16_CONTENT_TYPE, pcmContentType, recordedContentType } from './pcm-content-type.js';

describe('raw PCM content types', () => {
  it('lists raw PCM with a valid rate as audio/pcm;rate=<rate>;channels=<n>', () => {
    expect(pcmContentType('audio/pcm;rate=16000')).toBe('audio/pcm;rate=16000;channels=1');
    expect(pcmContentType('audio/L16; rate=44100; channels=2')).toBe('audio/pcm;rate=44100;channels=2');
    expect(pcmContentType('audio/x-pcm;rate=8000;channels=1')).toBe('audio/pcm;rate=8000;channels=1');
    expect(pcmContentType('audio/pcm;rate=192000')).toBe('audio/pcm;rate=192000;channels=1');
    expect(PCM16_CONTENT_TYPE).toBe('audio/pcm;rate=24000;channels=1');
  });

  it.each([
    'audio/pcm',
    'audio/pcm;rate=7999',
    'audio/pcm;rate=192001',
    'audio/pcm;rate=16000.5',
    'audio/pcm;rate=16000;channels=3',
    'audio/pcm;rate=16000;channels=0',
    'audio/wav;rate=16000',
  ])('has no playable type for %s', (mediaType) => {
    expect(pcmContentType(mediaType)).toBeUndefined();
  });

  it('keeps raw PCM without a valid rate as recorded, download only', () => {
    expect(recordedContentType('audio/L16')).toBe('audio/l16');
    expect(recordedContentType('audio/pcm;rate=5')).toBe('audio/pcm');
    expect(recordedContentType('Image/PNG; q=1')).toBe('image/png');
    expect(recordedContentType('not a type')).toBeUndefined();
  });
});
