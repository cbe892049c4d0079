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

describe('OpenAI Responses parts', () => {
  it('reads input_image and input_file, naming the file by filename', () => {
    const value =
      `{"input":[{"role":"user","content":[{"type":"input_text","text":"Sum up"},` +
      `{"type":"input_image","image_url":"data:image/png;base64,${PNG_BASE64}","detail":"auto"},` +
      `{"type":"input_file","filename":"q3.pdf","file_data":"data:application/pdf;base64,${PDF}"}]}]}`;
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('input.value', value, decide).value).toBe(
      `{"input":[{"role":"user","content":[{"type":"input_text","text":"Sum up"},` +
        `{"type":"input_image",${digestMembers(PNG_BYTES)},"detail":"auto"},` +
        `{"type":"input_file","filename":"q3.pdf",${digestMembers(PDF_BYTES)}}]}]}`,
    );
    expect(offered.map((file) => [file.key, file.contentType, file.name])).toEqual([
      ['input.value#/input/0/content/1', 'image/png', undefined],
      ['input.value#/input/0/content/2', 'application/pdf', 'q3.pdf'],
    ]);
  });

  it('leaves file ids and file URLs alone', () => {
    const value =
      '[{"type":"input_image","file_id":"file-1"},{"type":"input_file","file_url":"https://example.com/a.pdf"}]';
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('input.value', value, decide).changed).toBe(false);
    expect(offered).toEqual([]);
  });

  it('restores data: URLs', () => {
    const [image, file] = findDigestHolders([
      { type: 'input_image', sha256: sha256Hex(PNG_BYTES), size: PNG_BYTES.length, detail: 'auto' },
      { type: 'input_file', filename: 'q3.pdf', sha256: sha256Hex(PDF_BYTES), size: PDF_BYTES.length },
    ]);
    expect(image!.restore(PNG_BYTES, 'image/png')).toEqual({
      type: 'input_image',
      image_url: `data:image/png;base64,${PNG_BASE64}`,
      detail: 'auto',
    });
    expect(file!.restore(PDF_BYTES, 'application/pdf')).toEqual({
      type: 'input_file',
      filename: 'q3.pdf',
      file_data: `data:application/pdf;base64,${PDF}`,
    });
  });
});
