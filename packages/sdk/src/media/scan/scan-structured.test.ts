import { describe, expect, it } from 'vitest';
import { scanStructured } from './scan-structured.js';
import { PNG_BASE64, PNG_BYTES, PNG_SHA256, recordingDecide } from './test-support.js';

const DIGEST = { sha256: PNG_SHA256, size: PNG_BYTES.length };

describe('scanStructured', () => {
  it('puts parts in digest form copy-on-write, keyed body#<pointer>', () => {
    const untouched = { role: 'system', content: [{ type: 'text', text: 'be brief' }] };
    const body = {
      messages: [
        untouched,
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what is it?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}`, detail: 'low' } },
            { type: 'blob', modality: 'image', mime_type: 'image/png', content: new Uint8Array(PNG_BYTES) },
          ],
        },
      ],
    };
    const snapshot = structuredClone(body);
    const { decide, offered } = recordingDecide();
    const result = scanStructured(body, 'body', decide);
    expect(result.changed).toBe(true);
    expect(result.value).toEqual({
      messages: [
        untouched,
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what is it?' },
            { type: 'image_url', image_url: { ...DIGEST, detail: 'low' } },
            { type: 'blob', modality: 'image', mime_type: 'image/png', ...DIGEST },
          ],
        },
      ],
    });
    const messages = (result.value as typeof body).messages;
    expect(messages[0]).toBe(untouched);
    expect(messages[1]!.content[0]).toBe(body.messages[1]!.content[0]);
    expect(body).toEqual(snapshot);
    expect(offered.map((file) => [file.key, file.source])).toEqual([
      ['body#/messages/1/content/1', 'base64'],
      ['body#/messages/1/content/2', 'bytes'],
    ]);
  });

  it('accepts a key prefix ending with #', () => {
    const { decide, offered } = recordingDecide();
    scanStructured([`data:image/png;base64,${PNG_BASE64}`], 'body#', decide);
    expect(offered.map((file) => file.key)).toEqual(['body#/0']);
  });

  it('turns a whole data: URL body into a blob part keyed body#', () => {
    const { decide, offered } = recordingDecide();
    const result = scanStructured(`data:image/png;base64,${PNG_BASE64}`, 'body', decide);
    expect(result.value).toEqual({ type: 'blob', mime_type: 'image/png', modality: 'image', ...DIGEST });
    expect(offered.map((file) => file.key)).toEqual(['body#']);
  });

  it('scans strings holding JSON as text', () => {
    const text = `{"content":[{"type":"image","data":"${PNG_BASE64}","mimeType":"image/png"}]}`;
    const { decide, offered } = recordingDecide();
    const result = scanStructured({ tool: { result: text } }, 'body', decide);
    expect(result.value).toEqual({
      tool: {
        result: `{"content":[{"type":"image","sha256":"${PNG_SHA256}","size":${PNG_BYTES.length},"mimeType":"image/png"}]}`,
      },
    });
    expect(offered.map((file) => file.key)).toEqual(['body#/tool/result/content/0']);
  });

  it('returns the value itself when nothing changes or decide keeps everything', () => {
    const body = { messages: [{ type: 'image', image: PNG_BASE64 }], n: 1, bytes: new Uint8Array([1, 2]) };
    const { decide, offered } = recordingDecide('keep');
    expect(scanStructured(body, 'body', decide)).toEqual({ value: body, changed: false });
    expect(scanStructured(body, 'body', decide).value).toBe(body);
    expect(offered).toHaveLength(2);
  });

  it('leaves files more than ten levels deep, values nesting past 32 levels and cycles', () => {
    const { decide, offered } = recordingDecide();
    let deep: unknown = { type: 'image', image: PNG_BASE64 };
    for (let i = 0; i < 11; i++) deep = [deep];
    expect(scanStructured(deep, 'body', decide).changed).toBe(false);
    let nested: unknown = 1;
    for (let i = 0; i < 33; i++) nested = [nested];
    const tooDeep = [{ type: 'image', image: PNG_BASE64 }, nested];
    expect(scanStructured(tooDeep, 'body', decide)).toEqual({ value: tooDeep, changed: false });
    const cyclic: Record<string, unknown> = { part: { type: 'image', image: PNG_BASE64 } };
    cyclic.self = cyclic;
    expect(scanStructured(cyclic, 'body', decide).value).toBe(cyclic);
    expect(offered).toEqual([]);
  });

  it('reads byte arrays only in parts that hold binary data', () => {
    const { decide, offered } = recordingDecide();
    const body = [
      { type: 'file', data: Array.from(PNG_BYTES), mediaType: 'image/png' },
      { type: 'blob', modality: 'image', content: Array.from(PNG_BYTES) },
      new Uint8Array(PNG_BYTES),
    ];
    scanStructured(body, 'body', decide);
    expect(offered.map((file) => [file.key, file.sha256])).toEqual([['body#/0', PNG_SHA256]]);
  });
});
