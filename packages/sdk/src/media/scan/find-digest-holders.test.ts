import { describe, expect, it } from 'vitest';
import { findDigestHolders } from './find-digest-holders.js';
import { PNG_BASE64, PNG_BYTES, PNG_SHA256 } from './test-support.js';

const DIGEST = { sha256: PNG_SHA256, size: PNG_BYTES.length };

describe('findDigestHolders', () => {
  it('lists holders in reading order with their pointers, and never mutates the value', () => {
    const value = {
      'a/b': [{ type: 'blob', modality: 'image', mime_type: 'image/png', ...DIGEST }],
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'image', image: 'https://example.com/a.png' },
            { type: 'image', ...DIGEST },
          ],
          audio: { id: 'x', ...DIGEST },
        },
      ],
    };
    const snapshot = structuredClone(value);
    const holders = findDigestHolders(value);
    expect(holders.map((holder) => [holder.pointer, holder.form])).toEqual([
      ['/a~1b/0', 'genai.blob'],
      ['/messages/0', 'openai.assistant_audio'],
      ['/messages/0/content/1', 'ai-sdk.image'],
    ]);
    for (const holder of holders) holder.restore(PNG_BYTES, 'image/png');
    expect(value).toEqual(snapshot);
  });

  it('restores the assistant message with its content untouched', () => {
    const message = { role: 'assistant', content: 'hi', audio: { id: 'x', ...DIGEST, transcript: 't' } };
    expect(findDigestHolders(message)[0]!.restore(PNG_BYTES, 'audio/wav')).toEqual({
      role: 'assistant',
      content: 'hi',
      audio: { id: 'x', data: PNG_BASE64, transcript: 't' },
    });
  });

  it('does not search strings holding JSON', () => {
    const inner = JSON.stringify([{ type: 'blob', modality: 'image', ...DIGEST }]);
    expect(findDigestHolders({ result: inner })).toEqual([]);
    expect(findDigestHolders(JSON.parse(inner))).toHaveLength(1);
  });

  it('ignores parts whose digest is not well formed', () => {
    expect(
      findDigestHolders([
        { type: 'blob', sha256: PNG_SHA256.toUpperCase(), size: 1 },
        { type: 'blob', sha256: PNG_SHA256, size: -1 },
        { type: 'blob', sha256: PNG_SHA256, size: 1.5 },
        { type: 'blob', sha256: PNG_SHA256 },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', ...DIGEST } },
      ]),
    ).toEqual([]);
  });

  it('never throws, whatever the value', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const throwing = Object.defineProperty({}, 'type', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    for (const value of [
      null,
      undefined,
      1,
      'x',
      cyclic,
      throwing,
      [throwing],
      new Uint8Array(3),
      new Date(),
    ]) {
      expect(() => findDigestHolders(value)).not.toThrow();
    }
  });
});
