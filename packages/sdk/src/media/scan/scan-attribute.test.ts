import { describe, expect, it } from 'vitest';
import { scanAttribute } from './scan-attribute.js';
import { PNG_BASE64, PNG_BYTES, PNG_SHA256, recordingDecide } from './test-support.js';

const DIGEST = `"sha256":"${PNG_SHA256}","size":${PNG_BYTES.length}`;

describe('scanAttribute: common forms', () => {
  it('replaces an OpenAI chat image_url data URL by sha256 and size, keeping the rest byte for byte', () => {
    const value = `[{"role":"user","content":[{"type":"text","text":"What is this?"},{"type":"image_url","image_url":{"url":"data:image/png;base64,${PNG_BASE64}","detail":"low"}}]}]`;
    const { decide, offered } = recordingDecide();
    const result = scanAttribute('gen_ai.input.messages', value, decide);
    expect(result).toEqual({
      value: `[{"role":"user","content":[{"type":"text","text":"What is this?"},{"type":"image_url","image_url":{${DIGEST},"detail":"low"}}]}]`,
      changed: true,
    });
    expect(offered).toEqual([
      {
        key: 'gen_ai.input.messages#/0/content/1',
        sha256: PNG_SHA256,
        size: PNG_BYTES.length,
        contentType: 'image/png',
        modality: 'image',
        source: 'base64',
      },
    ]);
  });

  it('turns a whole data: URL value into a GenAI blob part keyed <attribute>#', () => {
    const { decide, offered } = recordingDecide();
    const result = scanAttribute(
      'llm.input_messages.0.message.contents.1.message_content.image.image.url',
      `data:image/png;base64,${PNG_BASE64}`,
      decide,
    );
    expect(result.value).toBe(`{"type":"blob","mime_type":"image/png","modality":"image",${DIGEST}}`);
    expect(offered.map((file) => file.key)).toEqual([
      'llm.input_messages.0.message.contents.1.message_content.image.image.url#',
    ]);
  });

  it('keeps the value as recorded when decide answers keep', () => {
    const value = `[{"type":"blob","modality":"image","mime_type":"image/png","content":"${PNG_BASE64}"}]`;
    const { decide, offered } = recordingDecide('keep');
    expect(scanAttribute('gen_ai.input.messages', value, decide)).toEqual({ value, changed: false });
    expect(offered).toHaveLength(1);
  });

  it('leaves text without files unchanged and offers nothing', () => {
    const value = '[{"role":"user","content":"plain text, no files"}]';
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('gen_ai.input.messages', value, decide)).toEqual({ value, changed: false });
    expect(offered).toEqual([]);
  });
});
