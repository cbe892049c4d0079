import { describe, expect, it } from 'vitest';
import { CAT_PNG, DOT_PNG, REPORT_PDF } from '../../../../../fixtures/messages/media.js';
import { findDigestHolders, scanAttribute } from '../scan/index.js';
import { sourceBytes } from '../scan/test-support.js';
import {
  attributeFixturesWithFiles,
  FORM_CHANGES,
  filesIn,
  recordFixture,
} from './__fixtures__/recorded-fixtures.js';
import { rehydrateMedia } from './rehydrate-media.js';

const imagePart = (base64: string) => ({
  type: 'image_url',
  image_url: { url: `data:image/png;base64,${base64}` },
});

/** `value` recorded in `attribute` with its files in digest form (parsed). */
function digestForm(attribute: string, value: unknown): unknown {
  return JSON.parse(scanAttribute(attribute, JSON.stringify(value), () => 'upload').value);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

describe('rehydrateMedia', () => {
  const messages = [
    {
      role: 'user',
      content: [{ type: 'text', text: 'Compare' }, imagePart(CAT_PNG.base64), imagePart(DOT_PNG.base64)],
    },
    {
      role: 'tool',
      tool_call_id: 'c1',
      content: JSON.stringify({ content: [{ type: 'image', data: CAT_PNG.base64, mimeType: 'image/png' }] }),
    },
  ];
  const inputs = deepFreeze({ messages: digestForm('input.value', { messages }) as { messages: unknown } });

  it('writes case files back by SHA-256, also inside JSON-encoded strings, without touching the input', () => {
    const restored = rehydrateMedia(inputs, [
      {
        sha256: CAT_PNG.sha256,
        contentType: 'image/png',
        bytes: CAT_PNG.bytes,
        role: 'source',
        name: 'cat.png',
      },
      { contentType: 'image/png', data: DOT_PNG.base64 },
    ]);
    expect(restored).toEqual({ messages: { messages } });
  });

  it('accepts data as a data: URL whose media type serves as the content type', () => {
    const restored = rehydrateMedia(inputs, [
      { data: `data:image/png;base64,${CAT_PNG.base64}` },
      { data: `data:image/png;base64,${DOT_PNG.base64}` },
    ]);
    expect(restored).toEqual({ messages: { messages } });
  });

  it('reads data as attachments read it: line-wrapped base64 is the same file', () => {
    const wrapped = CAT_PNG.base64.replace(/.{1,76}/g, '$&\r\n');
    expect(wrapped).not.toBe(CAT_PNG.base64);
    const restored = rehydrateMedia(inputs, [
      { contentType: 'image/png', data: wrapped },
      { contentType: 'image/png', data: DOT_PNG.base64 },
    ]);
    expect(restored).toEqual({ messages: { messages } });
  });

  it('refuses base64 cut off mid-character instead of restoring other bytes', () => {
    // 'QUJD' is 'ABC'; the fifth character cannot end a base64 text.
    const truncated = 'QUJDR';
    expect(Buffer.from(truncated, 'base64').toString()).toBe('ABC');
    expect(() => rehydrateMedia(inputs, [{ contentType: 'image/png', data: truncated }])).toThrow(
      'files[0].data must be base64 or a data: URL declaring a media type; got another string',
    );
  });

  it('leaves parts without a matching file in digest form, and JSON text comes back as JSON text', () => {
    const text = scanAttribute('gen_ai.input.messages', JSON.stringify(messages), () => 'upload').value;
    const restored = rehydrateMedia(text, [{ contentType: 'image/png', bytes: DOT_PNG.bytes }]) as string;
    expect(typeof restored).toBe('string');
    const parsed = JSON.parse(restored);
    expect(parsed[0].content[2]).toEqual(imagePart(DOT_PNG.base64));
    expect(findDigestHolders(parsed[0].content[1])).toHaveLength(1);
    expect(rehydrateMedia(text, [])).toBe(text);
    expect(rehydrateMedia(inputs, [{ contentType: 'application/pdf', bytes: REPORT_PDF.bytes }])).toBe(
      inputs,
    );
  });

  it.each(attributeFixturesWithFiles.map((f) => [f.name, f] as const))('round-trips %s', (_name, fixture) => {
    const { text, scanned, found } = recordFixture(fixture);
    const files = found.map((f) => ({
      sha256: f.sha256,
      contentType: f.contentType,
      bytes: sourceBytes(f.source),
    }));
    const restored = rehydrateMedia(scanned, files) as string;
    expect(filesIn(fixture, restored)).toEqual(filesIn(fixture, text));
    if (!FORM_CHANGES.has(fixture.name)) {
      if (fixture.text === true) expect(restored).toBe(text);
      else expect(JSON.parse(restored)).toEqual(JSON.parse(text));
    }
  });

  it.each([
    [{}, 'files must be an array of { sha256?, contentType, bytes | data }; got an object'],
    [[null], 'files[0] must be an object { sha256?, contentType, bytes | data }; got null'],
    [[{ contentType: 'image/png' }], 'files[0] must have exactly one of bytes and data'],
    [
      [{ contentType: 'image/png', bytes: CAT_PNG.bytes, data: CAT_PNG.base64 }],
      'files[0] must have exactly one of bytes and data',
    ],
    [[{ contentType: 'image/png', bytes: [1, 2] }], 'files[0].bytes must be a Uint8Array; got an array'],
    [
      [{ contentType: 'image/png', data: 42 }],
      'files[0].data must be a base64 string or a data: URL; got 42',
    ],
    [[{ bytes: CAT_PNG.bytes }], 'files[0].contentType must be a nonempty media type string; got undefined'],
    [
      [
        { contentType: 'image/png', bytes: CAT_PNG.bytes },
        { contentType: 'image/png', bytes: DOT_PNG.bytes, sha256: CAT_PNG.sha256 },
      ],
      `files[1].sha256 is not the SHA-256 of its bytes (leave it out to use theirs); got "${CAT_PNG.sha256}"`,
    ],
    [
      [{ contentType: 'image/png', bytes: CAT_PNG.bytes, sha256: 'ABC' }],
      'files[0].sha256 must be 64 lowercase hex characters (a SHA-256); got "ABC"',
    ],
  ])('rejects invalid files %#', (files, message) => {
    expect(() => rehydrateMedia(inputs, files as never)).toThrow(new TypeError(message));
  });

  it('never shows the content of invalid data', () => {
    const secret = 'not base64: patient record 1234!';
    expect(() => rehydrateMedia(inputs, [{ contentType: 'text/plain', data: secret }])).toThrow(
      'files[0].data must be base64 or a data: URL declaring a media type; got another string',
    );
  });
});
