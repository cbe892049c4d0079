import { describe, expect, it } from 'vitest';
import {
  type FileDecision,
  INLINE_PREFIX_BYTES,
  INLINE_VALUE_LIMIT,
  TEXT_INLINE_LIMIT,
} from '../media-types.js';
import { PARSE_LIMIT_UNITS } from './json/tokenize-json.js';
import { scanAttribute } from './scan-attribute.js';
import { scanStructured } from './scan-structured.js';
import {
  digestMembers,
  PNG_BASE64,
  PNG_BYTES,
  PNG_SHA256,
  recordingDecide,
  sha256Hex,
} from './test-support.js';

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

const BLOB = `{"type":"blob","modality":"image","mime_type":"image/png","content":"${PNG_BASE64}"}`;
const BLOB_DIGEST = `{"type":"blob","modality":"image","mime_type":"image/png",${DIGEST}}`;

function nestedIn(levels: number, inner: string): string {
  return '['.repeat(levels) + inner + ']'.repeat(levels);
}

describe('scanAttribute: exemptions', () => {
  it('reads files up to ten levels below the root and leaves deeper ones', () => {
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('input.value', nestedIn(10, BLOB), decide).value).toBe(nestedIn(10, BLOB_DIGEST));
    expect(offered.map((file) => file.key)).toEqual([`input.value#${'/0'.repeat(10)}`]);
    const deeper = nestedIn(11, BLOB);
    expect(scanAttribute('input.value', deeper, decide)).toEqual({ value: deeper, changed: false });
    expect(offered).toHaveLength(1);
  });

  it('leaves the whole value as recorded when its JSON nests past 32 levels', () => {
    const { decide, offered } = recordingDecide();
    const at32 = `[${BLOB},${nestedIn(31, '1')}]`;
    expect(scanAttribute('input.value', at32, decide).changed).toBe(true);
    const past32 = `[${BLOB},${nestedIn(32, '1')}]`;
    expect(scanAttribute('input.value', past32, decide)).toEqual({ value: past32, changed: false });
    expect(offered).toHaveLength(1);
  });

  it('keeps a value holding an integer past 2^53 as text', () => {
    const { decide, offered } = recordingDecide();
    for (const big of ['9007199254740993', '-9007199254740993', '123456789012345678901234567890']) {
      const value = `[{"id":${big}},${BLOB}]`;
      expect(scanAttribute('input.value', value, decide)).toEqual({ value, changed: false });
    }
    expect(offered).toEqual([]);
    for (const fine of ['9007199254740992', '9007199254740993.5', '1e300', '-0']) {
      expect(scanAttribute('input.value', `[{"id":${fine}},${BLOB}]`, decide).value).toBe(
        `[{"id":${fine}},${BLOB_DIGEST}]`,
      );
    }
  });

  it('leaves input and output values declared text/plain as recorded', () => {
    const value = `[${BLOB}]`;
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('input.value', value, decide, { 'input.mime_type': 'text/plain' }).changed).toBe(
      false,
    );
    expect(
      scanAttribute('output.value', value, decide, { 'output.mime_type': 'Text/Plain; charset=utf-8' })
        .changed,
    ).toBe(false);
    expect(offered).toEqual([]);
    expect(
      scanAttribute('input.value', value, decide, { 'input.mime_type': 'application/json' }).changed,
    ).toBe(true);
    expect(scanAttribute('input.value', value, decide, { 'output.mime_type': 'text/plain' }).changed).toBe(
      true,
    );
  });

  it('reads OpenLLMetry indexed contents only when they hold a JSON parts list', () => {
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('gen_ai.prompt.0.content', `[${BLOB}]`, decide).changed).toBe(true);
    const object = `{"parts":[${BLOB}]}`;
    expect(scanAttribute('gen_ai.completion.3.content', object, decide)).toEqual({
      value: object,
      changed: false,
    });
    expect(offered.map((file) => file.key)).toEqual(['gen_ai.prompt.0.content#/0']);
  });

  it('never treats remote references as files', () => {
    const value = JSON.stringify([
      { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
      { type: 'image', image: 's3://bucket/cat.png' },
      { type: 'file', data: 'gs://bucket/report.pdf', mediaType: 'application/pdf' },
      { type: 'text', text: '@@@langfuseMedia:type=image/png|id=abc|source=base64_data_uri@@@' },
      { type: 'file', file: { file_id: 'file-abc' } },
      'https://example.com/data:image/png;base64,AAAA',
    ]);
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('gen_ai.input.messages', value, decide)).toEqual({ value, changed: false });
    expect(offered).toEqual([]);
  });
});

describe('scanAttribute: data: URLs and text', () => {
  it('reads a data: URL string anywhere as a GenAI blob part keyed at the string', () => {
    const value = `{"args":{"images":["data:image/png;base64,${PNG_BASE64}"]}}`;
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('ai.toolCall.args', value, decide).value).toBe(
      `{"args":{"images":[{"type":"blob","mime_type":"image/png","modality":"image",${DIGEST}}]}}`,
    );
    expect(offered.map((file) => file.key)).toEqual(['ai.toolCall.args#/args/images/0']);
  });

  it('does not read a data: URL that declares no media type', () => {
    const value = `["data:,hello","data:;base64,${PNG_BASE64}"]`;
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('metadata', value, decide).changed).toBe(false);
    expect(scanAttribute('metadata', 'data:;base64,AAAA', decide).changed).toBe(false);
    expect(offered).toEqual([]);
  });

  it('reads percent-encoded data: URLs, and their name parameter', () => {
    const value = '["data:application/octet-stream;name=a%20b.bin,%00%01%FFz"]';
    const { decide, offered, found } = recordingDecide();
    const result = scanAttribute('metadata', value, decide);
    const bytes = Buffer.from([0, 1, 255, 122]);
    expect(result.value).toBe(
      `[{"type":"blob","mime_type":"application/octet-stream","modality":"document",${digestMembers(bytes)},"name":"a b.bin"}]`,
    );
    expect(offered[0]).toMatchObject({ name: 'a b.bin', source: 'bytes', size: 4 });
    expect(found[0]?.source).toEqual({ kind: 'bytes', bytes });
  });

  it('keeps a text data: URL up to 64 KiB inline', () => {
    const text = Buffer.from('a'.repeat(TEXT_INLINE_LIMIT)).toString('base64');
    const value = `{"doc":"data:text/markdown;base64,${text}"}`;
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('metadata', value, decide).changed).toBe(false);
    expect(offered).toEqual([]);
  });

  it('turns a text data: URL over 64 KiB into a blob part keeping a UTF-8-safe 16 KiB prefix', () => {
    const text = `${'😀'.repeat(20 * 1024)}`;
    const bytes = Buffer.from(text);
    const value = `{"doc":"data:text/plain;base64,${bytes.toString('base64')}"}`;
    const { decide, offered } = recordingDecide();
    const recorded = JSON.parse(scanAttribute('metadata', value, decide).value);
    expect(recorded).toEqual({
      doc: {
        type: 'blob',
        mime_type: 'text/plain',
        modality: 'document',
        content: '😀'.repeat(INLINE_PREFIX_BYTES / 4),
        sha256: sha256Hex(bytes),
        size: bytes.length,
      },
    });
    expect(offered.map((file) => file.key)).toEqual(['metadata#/doc/content']);
  });

  it('hashes the same bytes recorded differently to the same digest', () => {
    const forms = [
      `"data:image/png;base64,${PNG_BASE64}"`,
      `{"type":"image","image":${JSON.stringify(Array.from(PNG_BYTES))}}`,
      `{"type":"image","image":"${PNG_BYTES.toString('base64url')}"}`,
      `{"type":"image","image":"${PNG_BASE64.replace(/=+$/, '')}"}`,
      `{"type":"image","image":"${PNG_BASE64.replace(/\//g, '\\/')}"}`,
    ];
    const { decide, offered } = recordingDecide();
    scanAttribute('ai.prompt', `[${forms.join(',')}]`, decide);
    expect(offered.map((file) => [file.sha256, file.size])).toEqual(
      forms.map(() => [PNG_SHA256, PNG_BYTES.length]),
    );
  });
});

describe('scanAttribute: JSON inside strings', () => {
  it('puts a file inside a JSON-encoded tool string in digest form inside the string', () => {
    const inner = `{"content":[{"type":"text","text":"caf\\u00e9 \\"ok\\""},{"type":"image","data":"${PNG_BASE64}","mimeType":"image/png"}]}`;
    const value = JSON.stringify([{ role: 'tool', tool_call_id: 'call_1', content: inner }]);
    const { decide, offered } = recordingDecide();
    const result = scanAttribute('input.value', value, decide);
    const expectedInner = inner.replace(`"data":"${PNG_BASE64}"`, DIGEST);
    expect(result.value).toBe(
      JSON.stringify([{ role: 'tool', tool_call_id: 'call_1', content: expectedInner }]),
    );
    expect(offered.map((file) => file.key)).toEqual(['input.value#/0/content/content/1']);
  });

  it('reads JSON strings within JSON strings, and leaves strings that only look like JSON', () => {
    const innermost = `[${BLOB}]`;
    const value = JSON.stringify({ a: JSON.stringify({ b: innermost }), c: '[not json', d: ' \n{"x":1}' });
    const { decide, offered } = recordingDecide();
    const result = scanAttribute('tool_response', value, decide);
    expect(result.value).toBe(
      JSON.stringify({ a: JSON.stringify({ b: `[${BLOB_DIGEST}]` }), c: '[not json', d: ' \n{"x":1}' }),
    );
    expect(offered.map((file) => file.key)).toEqual(['tool_response#/a/b/0']);
  });
});

describe('scanAttribute: the 1 MiB inline-value rule', () => {
  const big = JSON.stringify([{ role: 'user', content: 'ä'.repeat(600 * 1024) }]);

  it('offers a value over 1 MiB as one file keyed <attribute># and keeps a 16 KiB prefix', () => {
    const { decide, offered, found } = recordingDecide();
    const result = scanAttribute('gen_ai.input.messages', big, decide);
    const bytes = Buffer.from(big);
    expect(offered).toEqual([
      {
        key: 'gen_ai.input.messages#',
        sha256: sha256Hex(bytes),
        size: bytes.length,
        contentType: 'application/json',
        modality: 'document',
        source: 'utf8',
      },
    ]);
    expect(found[0]?.source).toEqual({ kind: 'utf8', text: big });
    expect(result.changed).toBe(true);
    expect(big.startsWith(result.value)).toBe(true);
    expect(Buffer.byteLength(result.value)).toBeLessThanOrEqual(INLINE_PREFIX_BYTES);
    expect(Buffer.byteLength(result.value)).toBeGreaterThan(INLINE_PREFIX_BYTES - 2);
  });

  it('keeps the value when decide answers keep, and types plain text as text/plain', () => {
    const { decide, offered } = recordingDecide('keep');
    expect(scanAttribute('gen_ai.input.messages', big, decide)).toEqual({ value: big, changed: false });
    const text = 'x'.repeat(INLINE_VALUE_LIMIT + 1);
    expect(scanAttribute('metadata', text, decide).changed).toBe(false);
    expect(offered.map((file) => file.contentType)).toEqual(['application/json', 'text/plain']);
  });

  it('applies after media replacement: a value small once its image is a digest is not offered whole', () => {
    const image = Buffer.alloc(INLINE_VALUE_LIMIT, 7);
    const value = `[{"type":"image","image":"${image.toString('base64')}","mediaType":"image/png"}]`;
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('ai.prompt', value, decide).value).toBe(
      `[{"type":"image",${digestMembers(image)},"mediaType":"image/png"}]`,
    );
    expect(offered.map((file) => file.key)).toEqual(['ai.prompt#/0']);
  });

  it('offers the value whole, last, when its media stay inline', () => {
    const image = Buffer.alloc(INLINE_VALUE_LIMIT, 7);
    const value = `[{"type":"image","image":"${image.toString('base64')}","mediaType":"image/png"}]`;
    const { decide, offered } = recordingDecide('keep');
    scanAttribute('ai.prompt', value, decide);
    expect(offered.map((file) => file.key)).toEqual(['ai.prompt#/0', 'ai.prompt#']);
  });
});

describe('scanAttribute: values too large to parse', () => {
  const LARGE = 9 * 1024 * 1024;

  it('reads a long base64 string of a value over 8 Mi code units from the original text', () => {
    const image = Buffer.alloc((LARGE / 4) * 3, 1);
    const base64 = image.toString('base64');
    const value = `[{"type":"text","text":"look"},{"type":"image_url","image_url":{"url":"data:image/png;base64,${base64}"}}]`;
    expect(value.length).toBeGreaterThan(PARSE_LIMIT_UNITS);
    const { decide, offered, found } = recordingDecide();
    expect(scanAttribute('gen_ai.input.messages', value, decide).value).toBe(
      `[{"type":"text","text":"look"},{"type":"image_url","image_url":{${digestMembers(image)}}}]`,
    );
    expect(offered.map((file) => [file.key, file.size])).toEqual([
      ['gen_ai.input.messages#/1', image.length],
    ]);
    const start = value.indexOf('base64,') + 7;
    expect(found[0]?.source).toEqual({ kind: 'base64', text: value, start, end: start + base64.length });
  });

  it('leaves the media of a value whose JSON outside long plain strings exceeds 8 Mi code units', () => {
    const escaped = 'line\n'.repeat(LARGE / 5);
    const value = JSON.stringify([
      { type: 'text', text: escaped },
      { type: 'image', image: PNG_BASE64 },
    ]);
    const { decide, offered } = recordingDecide('keep');
    expect(scanAttribute('ai.prompt', value, decide)).toEqual({ value, changed: false });
    expect(offered.map((file) => [file.key, file.contentType])).toEqual([['ai.prompt#', 'application/json']]);
  });
});

describe('scanAttribute: robustness', () => {
  it('leaves malformed JSON and plain text as they are', () => {
    const { decide, offered } = recordingDecide();
    for (const value of [`[${BLOB}`, `[${BLOB}]]`, `{"a":${BLOB},}`, 'plain text', '\ud800 lone', '']) {
      expect(scanAttribute('input.value', value, decide)).toEqual({ value, changed: false });
    }
    expect(offered).toEqual([]);
  });

  it('keeps a file when decide answers something else, and goes on with the next', () => {
    let calls = 0;
    const decide = (): FileDecision => {
      calls++;
      if (calls === 1) return 'later' as FileDecision;
      return 'digest';
    };
    const result = scanAttribute('input.value', `[${BLOB},${BLOB}]`, decide);
    expect(result.value).toBe(`[${BLOB},${BLOB_DIGEST}]`);
  });

  it('lets a decide that throws (a defect of the caller) reach the caller, not swallowed', () => {
    const defect = new TypeError('the admission failed');
    const decide = (): FileDecision => {
      throw defect;
    };
    expect(() => scanAttribute('input.value', `[${BLOB}]`, decide)).toThrow(defect);
    expect(() => scanStructured({ parts: [JSON.parse(BLOB)] }, 'body', decide)).toThrow(defect);
  });

  it('escapes / and ~ in keys and keeps whitespace and member order', () => {
    const value = `{\n  "a/b~c": [\n    ${BLOB}\n  ]\n}`;
    const { decide, offered } = recordingDecide();
    expect(scanAttribute('metadata', value, decide).value).toBe(
      `{\n  "a/b~c": [\n    ${BLOB_DIGEST}\n  ]\n}`,
    );
    expect(offered.map((file) => file.key)).toEqual(['metadata#/a~1b~0c/0']);
  });

  it('drops names that are not valid file names', () => {
    const { decide, offered } = recordingDecide();
    const names = ['ok.pdf', ' ', 'tab\there', 'x'.repeat(257), 'lone\ud800'];
    const parts = names.map((name) => ({
      type: 'file',
      data: PNG_BASE64,
      mediaType: 'image/png',
      filename: name,
    }));
    scanAttribute('ai.prompt.messages', JSON.stringify(parts), decide);
    expect(offered.map((file) => file.name)).toEqual(['ok.pdf', undefined, undefined, undefined, undefined]);
  });
});
