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

describe('AI SDK parts', () => {
  it('reads base64, data: URL and byte-array images and files', () => {
    const bytes = JSON.stringify(Array.from(PNG_BYTES));
    const value =
      `{"messages":[{"role":"user","content":[` +
      `{"type":"image","image":"${PNG_BASE64}","mediaType":"image/png"},` +
      `{"type":"image","image":"data:image/png;base64,${PNG_BASE64}"},` +
      `{"type":"image","image":${bytes}},` +
      `{"type":"file","data":"${PDF}","mediaType":"application/pdf","filename":"q3.pdf"}]}]}`;
    const { decide, offered } = recordingDecide();
    const png = digestMembers(PNG_BYTES);
    expect(scanAttribute('ai.prompt', value, decide).value).toBe(
      `{"messages":[{"role":"user","content":[` +
        `{"type":"image",${png},"mediaType":"image/png"},` +
        `{"type":"image",${png}},` +
        `{"type":"image",${png}},` +
        `{"type":"file",${digestMembers(PDF_BYTES)},"mediaType":"application/pdf","filename":"q3.pdf"}]}]}`,
    );
    expect(offered.map((file) => [file.key, file.contentType, file.source, file.name])).toEqual([
      ['ai.prompt#/messages/0/content/0', 'image/png', 'base64', undefined],
      ['ai.prompt#/messages/0/content/1', 'image/png', 'base64', undefined],
      ['ai.prompt#/messages/0/content/2', 'image/png', 'bytes', undefined],
      ['ai.prompt#/messages/0/content/3', 'application/pdf', 'base64', 'q3.pdf'],
    ]);
  });

  it('does not read the v6 numbered-byte object, URLs or arrays that are not bytes', () => {
    const numbered = JSON.stringify(JSON.parse(JSON.stringify(new Uint8Array(PNG_BYTES))));
    const value =
      `[{"type":"image","image":${numbered}},{"type":"image","image":"https://example.com/a.png"},` +
      `{"type":"file","data":[1,2,256],"mediaType":"application/octet-stream"},{"type":"file","data":[],"mediaType":"text/plain"}]`;
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('ai.prompt.messages', value, decide).changed).toBe(false);
    expect(offered).toEqual([]);
  });

  it('types an image without mediaType from its bytes', () => {
    const value = `[{"type":"image","image":"${PNG_BASE64}"}]`;
    const { decide, offered } = recordingDecide();
    scanAttribute('ai.prompt.messages', value, decide);
    expect(offered[0]).toMatchObject({ contentType: 'image/png', modality: 'image' });
  });

  it('reads tool output media parts', () => {
    const value = `[{"type":"tool-result","output":{"type":"content","value":[{"type":"media","data":"${PNG_BASE64}","mediaType":"image/png"}]}}]`;
    const { decide, offered } = recordingDecide();
    scanAttribute('ai.prompt.messages', value, decide);
    expect(offered.map((file) => file.key)).toEqual(['ai.prompt.messages#/0/output/value/0']);
  });

  it('restores base64 when the part declares mediaType, else a data: URL', () => {
    const [typed, untyped] = findDigestHolders([
      { type: 'file', mediaType: 'application/pdf', sha256: sha256Hex(PDF_BYTES), size: PDF_BYTES.length },
      { type: 'image', sha256: sha256Hex(PNG_BYTES), size: PNG_BYTES.length },
    ]);
    expect(typed!.restore(PDF_BYTES, 'application/pdf')).toEqual({
      type: 'file',
      mediaType: 'application/pdf',
      data: PDF,
    });
    expect(untyped!.restore(PNG_BYTES, 'image/png')).toEqual({
      type: 'image',
      image: `data:image/png;base64,${PNG_BASE64}`,
    });
  });
});
