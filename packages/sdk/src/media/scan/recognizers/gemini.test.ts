import { describe, expect, it } from 'vitest';
import { findDigestHolders } from '../find-digest-holders.js';
import { scanAttribute } from '../scan-attribute.js';
import { digestMembers, PNG_BASE64, PNG_BYTES, recordingDecide, sha256Hex } from '../test-support.js';

describe('Gemini parts', () => {
  it('reads inlineData and snake-case inline_data; displayName names the file', () => {
    const value =
      `{"contents":[{"role":"user","parts":[{"text":"What is it?"},` +
      `{"inlineData":{"mimeType":"image/png","data":"${PNG_BASE64}","displayName":"dot.png"}},` +
      `{"inline_data":{"mime_type":"audio/L16;rate=24000","data":"AAABAAIA"}},` +
      `{"fileData":{"fileUri":"gs://bucket/a.pdf","mimeType":"application/pdf"}}]}]}`;
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('input.value', value, decide).value).toBe(
      `{"contents":[{"role":"user","parts":[{"text":"What is it?"},` +
        `{"inlineData":{"mimeType":"image/png",${digestMembers(PNG_BYTES)},"displayName":"dot.png"}},` +
        `{"inline_data":{"mime_type":"audio/L16;rate=24000",${digestMembers(Buffer.from('AAABAAIA', 'base64'))}}},` +
        `{"fileData":{"fileUri":"gs://bucket/a.pdf","mimeType":"application/pdf"}}]}]}`,
    );
    expect(offered.map((file) => [file.key, file.contentType, file.name])).toEqual([
      ['input.value#/contents/0/parts/1', 'image/png', 'dot.png'],
      ['input.value#/contents/0/parts/2', 'audio/pcm;rate=24000;channels=1', undefined],
    ]);
  });

  it('restores bare base64 in inlineData', () => {
    const [holder] = findDigestHolders([
      { inlineData: { mimeType: 'image/png', sha256: sha256Hex(PNG_BYTES), size: PNG_BYTES.length } },
    ]);
    expect(holder).toMatchObject({ pointer: '/0', contentType: 'image/png' });
    expect(holder!.restore(PNG_BYTES, 'image/png')).toEqual({
      inlineData: { mimeType: 'image/png', data: PNG_BASE64 },
    });
  });
});
