import { describe, expect, it } from 'vitest';
import { INLINE_PREFIX_BYTES } from '../../media-types.js';
import { findDigestHolders } from '../find-digest-holders.js';
import { scanAttribute } from '../scan-attribute.js';
import { digestMembers, PNG_BASE64, PNG_BYTES, recordingDecide, sha256Hex } from '../test-support.js';

describe('GenAI semantic-convention parts', () => {
  it('replaces a blob part content by sha256 and size', () => {
    const value = `[{"role":"user","parts":[{"type":"blob","modality":"image","mime_type":"image/png","content":"${PNG_BASE64}"}]}]`;
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('gen_ai.input.messages', value, decide).value).toBe(
      `[{"role":"user","parts":[{"type":"blob","modality":"image","mime_type":"image/png",${digestMembers(PNG_BYTES)}}]}]`,
    );
    expect(offered.map((file) => file.key)).toEqual(['gen_ai.input.messages#/0/parts/0']);
  });

  it('never reads a uri part, even a data: URL, nor a file part', () => {
    const value = `[{"type":"uri","modality":"image","uri":"data:image/png;base64,${PNG_BASE64}"},{"type":"file","modality":"image","file_id":"file-1"}]`;
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('gen_ai.input.messages', value, decide)).toEqual({ value, changed: false });
    expect(offered).toEqual([]);
  });

  it('keeps text content over 64 KiB as a 16 KiB prefix keyed at the content field', () => {
    const text = 'é'.repeat(40 * 1024);
    const value = JSON.stringify([
      { type: 'blob', modality: 'document', mime_type: 'text/plain', content: text },
    ]);
    const { decide, offered } = recordingDecide();
    const recorded = JSON.parse(scanAttribute('gen_ai.input.messages', value, decide).value);
    const bytes = Buffer.from(text);
    expect(recorded).toEqual([
      {
        type: 'blob',
        modality: 'document',
        mime_type: 'text/plain',
        content: 'é'.repeat(INLINE_PREFIX_BYTES / 2),
        sha256: sha256Hex(bytes),
        size: bytes.length,
      },
    ]);
    expect(offered).toMatchObject([
      { key: 'gen_ai.input.messages#/0/content', source: 'utf8', size: bytes.length },
    ]);
  });

  it('keeps text content up to 64 KiB as it is, and text in a non-text blob', () => {
    const value = JSON.stringify([
      { type: 'blob', modality: 'document', mime_type: 'text/plain', content: 'short text' },
      { type: 'blob', modality: 'image', mime_type: 'image/png', content: 'not base64 at all' },
    ]);
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('gen_ai.input.messages', value, decide).changed).toBe(false);
    expect(offered).toEqual([]);
  });

  it('decodes bare-base64 text first: over 64 KiB it takes digest form without a prefix', () => {
    const bytes = Buffer.from('x'.repeat(65 * 1024));
    const value = JSON.stringify([
      { type: 'blob', modality: 'document', mime_type: 'text/csv', content: bytes.toString('base64') },
    ]);
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('gen_ai.input.messages', value, decide).value).toBe(
      `[{"type":"blob","modality":"document","mime_type":"text/csv",${digestMembers(bytes)}}]`,
    );
    expect(offered).toMatchObject([
      { key: 'gen_ai.input.messages#/0', contentType: 'text/csv', source: 'base64' },
    ]);
    const small = JSON.stringify([
      { type: 'blob', modality: 'document', mime_type: 'text/csv', content: 'YSxiCg==' },
    ]);
    expect(scanAttribute('gen_ai.input.messages', small, decide).changed).toBe(false);
  });

  it('finds blob digest parts and restores base64 content, or the whole text for a prefix', () => {
    const holders = findDigestHolders([
      { type: 'blob', modality: 'image', mime_type: 'image/png', sha256: sha256Hex(PNG_BYTES), size: 29 },
      {
        type: 'blob',
        modality: 'document',
        mime_type: 'text/plain',
        content: 'abc',
        sha256: sha256Hex('abcdef'),
        size: 6,
      },
      { type: 'blob', modality: 'image', sha256: 'not a digest', size: 29 },
    ]);
    expect(
      holders.map(({ pointer, keyPointer, prefix, contentType }) => ({
        pointer,
        keyPointer,
        prefix,
        contentType,
      })),
    ).toEqual([
      { pointer: '/0', keyPointer: '/0', prefix: undefined, contentType: 'image/png' },
      { pointer: '/1', keyPointer: '/1/content', prefix: 'abc', contentType: 'text/plain' },
    ]);
    expect(holders[0]!.restore(PNG_BYTES, 'image/png')).toEqual({
      type: 'blob',
      modality: 'image',
      mime_type: 'image/png',
      content: PNG_BASE64,
    });
    expect(holders[1]!.restore(Buffer.from('abcdef'), 'text/plain')).toEqual({
      type: 'blob',
      modality: 'document',
      mime_type: 'text/plain',
      content: 'abcdef',
    });
  });
});
