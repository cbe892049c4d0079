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

describe('Anthropic content blocks', () => {
  it('reads base64 image and document sources; a document is named by its title', () => {
    const value =
      `{"messages":[{"role":"user","content":[` +
      `{"type":"image","source":{"type":"base64","media_type":"image/png","data":"${PNG_BASE64}"}},` +
      `{"type":"document","title":"Q3 report","source":{"type":"base64","media_type":"application/pdf","data":"${PDF}"}},` +
      `{"type":"document","source":{"type":"text","media_type":"text/plain","data":"plain text stays"}}]}]}`;
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('input.value', value, decide).value).toBe(
      `{"messages":[{"role":"user","content":[` +
        `{"type":"image","source":{"type":"base64","media_type":"image/png",${digestMembers(PNG_BYTES)}}},` +
        `{"type":"document","title":"Q3 report","source":{"type":"base64","media_type":"application/pdf",${digestMembers(PDF_BYTES)}}},` +
        `{"type":"document","source":{"type":"text","media_type":"text/plain","data":"plain text stays"}}]}]}`,
    );
    expect(offered.map((file) => [file.key, file.contentType, file.modality, file.name])).toEqual([
      ['input.value#/messages/0/content/0', 'image/png', 'image', undefined],
      ['input.value#/messages/0/content/1', 'application/pdf', 'document', 'Q3 report'],
    ]);
  });

  it('leaves url and file sources alone', () => {
    const value =
      '[{"type":"image","source":{"type":"url","url":"https://example.com/a.png"}},{"type":"document","source":{"type":"file","file_id":"file_1"}}]';
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('input.value', value, decide).changed).toBe(false);
    expect(offered).toEqual([]);
  });

  it('restores bare base64 in the source', () => {
    const [holder] = findDigestHolders({
      type: 'image',
      source: {
        type: 'base64',
        media_type: 'image/png',
        sha256: sha256Hex(PNG_BYTES),
        size: PNG_BYTES.length,
      },
    });
    expect(holder).toMatchObject({ pointer: '', contentType: 'image/png', form: 'anthropic.image' });
    expect(holder!.restore(PNG_BYTES, 'image/png')).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 },
    });
  });
});
