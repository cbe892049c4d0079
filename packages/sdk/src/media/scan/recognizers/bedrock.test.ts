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

describe('Bedrock Converse content blocks', () => {
  it('reads image, document and video bytes; format gives the media type and name names a document', () => {
    const value =
      `{"messages":[{"role":"user","content":[` +
      `{"image":{"format":"png","source":{"bytes":"${PNG_BASE64}"}}},` +
      `{"document":{"format":"pdf","name":"Q3 report","source":{"bytes":"${PDF}"}}},` +
      `{"video":{"format":"mp4","source":{"s3Location":{"uri":"s3://bucket/clip.mp4"}}}}]}]}`;
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('input.value', value, decide).value).toBe(
      `{"messages":[{"role":"user","content":[` +
        `{"image":{"format":"png","source":{${digestMembers(PNG_BYTES)}}}},` +
        `{"document":{"format":"pdf","name":"Q3 report","source":{${digestMembers(PDF_BYTES)}}}},` +
        `{"video":{"format":"mp4","source":{"s3Location":{"uri":"s3://bucket/clip.mp4"}}}}]}]}`,
    );
    expect(offered.map((file) => [file.key, file.contentType, file.name])).toEqual([
      ['input.value#/messages/0/content/0', 'image/png', undefined],
      ['input.value#/messages/0/content/1', 'application/pdf', 'Q3 report'],
    ]);
  });

  it('keeps a small text document inline', () => {
    const text = Buffer.from('a,b\n1,2\n').toString('base64');
    const value = `[{"document":{"format":"csv","name":"t","source":{"bytes":"${text}"}}}]`;
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('input.value', value, decide).changed).toBe(false);
    expect(offered).toEqual([]);
  });

  it('restores bare base64 bytes', () => {
    const [holder] = findDigestHolders({
      image: { format: 'png', source: { sha256: sha256Hex(PNG_BYTES), size: PNG_BYTES.length } },
    });
    expect(holder).toMatchObject({ contentType: 'image/png', form: 'bedrock.image' });
    expect(holder!.restore(PNG_BYTES, 'image/png')).toEqual({
      image: { format: 'png', source: { bytes: PNG_BASE64 } },
    });
  });
});
