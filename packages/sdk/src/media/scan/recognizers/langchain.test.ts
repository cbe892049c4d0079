import { describe, expect, it } from 'vitest';
import { findDigestHolders } from '../find-digest-holders.js';
import { scanAttribute } from '../scan-attribute.js';
import {
  digestMembers,
  PDF_BYTES,
  PNG_BASE64,
  PNG_BYTES,
  recordingDecide,
  sha256Hex,
} from '../test-support.js';

const PDF = PDF_BYTES.toString('base64');

describe('LangChain content blocks', () => {
  it('reads v0.3 data blocks and v1 base64 blocks', () => {
    const value =
      `[{"role":"user","content":[` +
      `{"type":"image","source_type":"base64","data":"${PNG_BASE64}","mime_type":"image/png"},` +
      `{"type":"file","base64":"${PDF}","mime_type":"application/pdf","metadata":{"filename":"q3.pdf"}},` +
      `{"type":"image","source_type":"url","url":"https://example.com/a.png"}]}]`;
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('langfuse.observation.input', value, decide).value).toBe(
      `[{"role":"user","content":[` +
        `{"type":"image","source_type":"base64",${digestMembers(PNG_BYTES)},"mime_type":"image/png"},` +
        `{"type":"file",${digestMembers(PDF_BYTES)},"mime_type":"application/pdf","metadata":{"filename":"q3.pdf"}},` +
        `{"type":"image","source_type":"url","url":"https://example.com/a.png"}]}]`,
    );
    expect(offered.map((file) => [file.key, file.contentType, file.name])).toEqual([
      ['langfuse.observation.input#/0/content/0', 'image/png', undefined],
      ['langfuse.observation.input#/0/content/1', 'application/pdf', 'q3.pdf'],
    ]);
  });

  it('restores the field each version uses', () => {
    const holders = findDigestHolders([
      {
        type: 'image',
        source_type: 'base64',
        mime_type: 'image/png',
        sha256: sha256Hex(PNG_BYTES),
        size: 29,
      },
      { type: 'image', mime_type: 'image/png', sha256: sha256Hex(PNG_BYTES), size: 29 },
    ]);
    expect(holders[0]!.restore(PNG_BYTES, 'image/png')).toEqual({
      type: 'image',
      source_type: 'base64',
      mime_type: 'image/png',
      data: PNG_BASE64,
    });
    expect(holders[1]!.restore(PNG_BYTES, 'image/png')).toEqual({
      type: 'image',
      mime_type: 'image/png',
      base64: PNG_BASE64,
    });
  });
});
