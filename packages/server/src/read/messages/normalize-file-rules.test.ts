import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DOT_PNG, REPORT_PDF, TONE_PCM } from '../../../../../fixtures/messages/media.js';
import { attrs, entry, filesOf } from './__fixtures__/records.js';
import { inlineFileBytes } from './inline-file-bytes.js';
import { normalizeSpanMessages } from './normalize-span-messages.js';

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
const user = (...parts: unknown[]) => [{ role: 'user', parts }];

describe('files in digest form (spec "How an uploaded file appears in the record")', () => {
  it('without a svc.blobs entry (refused at export), takes the type the part declares, else its name, else octet-stream', () => {
    const value = user(
      { type: 'blob', modality: 'image', mime_type: 'image/png', sha256: DOT_PNG.sha256, size: DOT_PNG.size },
      { type: 'file', file: { filename: 'q3.pdf', sha256: REPORT_PDF.sha256, size: REPORT_PDF.size } },
      { type: 'image_url', image_url: { sha256: DOT_PNG.sha256, size: DOT_PNG.size } },
    );
    const files = filesOf(normalizeSpanMessages(attrs({ 'gen_ai.input.messages': value }), []));
    expect(files).toEqual([
      {
        key: 'gen_ai.input.messages#/0/parts/0',
        sha256: DOT_PNG.sha256,
        size: DOT_PNG.size,
        contentType: 'image/png',
        form: 'digest',
      },
      {
        key: 'gen_ai.input.messages#/0/parts/1',
        sha256: REPORT_PDF.sha256,
        size: REPORT_PDF.size,
        contentType: 'application/pdf',
        name: 'q3.pdf',
        form: 'digest',
      },
      {
        key: 'gen_ai.input.messages#/0/parts/2',
        sha256: DOT_PNG.sha256,
        size: DOT_PNG.size,
        contentType: 'application/octet-stream',
        form: 'digest',
      },
    ]);
  });

  it('matches a part to its entry by key for type and name, else by digest', () => {
    const value = user(
      { type: 'image_url', image_url: { sha256: DOT_PNG.sha256, size: DOT_PNG.size } },
      { type: 'image_url', image_url: { sha256: REPORT_PDF.sha256, size: REPORT_PDF.size } },
    );
    const listed = [
      entry('gen_ai.input.messages#/0/parts/0', DOT_PNG.sha256, DOT_PNG.size, 'image/png', 'dot.png'),
      entry(
        'gen_ai.input.messages#/elsewhere',
        REPORT_PDF.sha256,
        REPORT_PDF.size,
        'application/pdf',
        'r.pdf',
      ),
    ];
    const files = filesOf(normalizeSpanMessages(attrs({ 'gen_ai.input.messages': value }), listed));
    expect(files.map((f) => [f.key, f.contentType, f.name])).toEqual([
      ['gen_ai.input.messages#/0/parts/0', 'image/png', 'dot.png'],
      ['gen_ai.input.messages#/0/parts/1', 'application/pdf', 'r.pdf'],
    ]);
  });

  it('does not take an entry of the same key naming other bytes', () => {
    const value = user({ type: 'blob', mime_type: 'image/png', sha256: DOT_PNG.sha256, size: DOT_PNG.size });
    const listed = [
      entry('gen_ai.input.messages#/0/parts/0', 'f'.repeat(64), 9, 'application/pdf', 'other.pdf'),
    ];
    const [file] = filesOf(normalizeSpanMessages(attrs({ 'gen_ai.input.messages': value }), listed));
    expect(file).toMatchObject({ sha256: DOT_PNG.sha256, contentType: 'image/png' });
    expect(file?.name).toBeUndefined();
  });

  it('is no file when the digest members are not a SHA-256 and a byte count', () => {
    for (const digest of [
      { sha256: 'ABC', size: 3 },
      { sha256: DOT_PNG.sha256.toUpperCase(), size: 3 },
      { sha256: DOT_PNG.sha256, size: -1 },
      { sha256: DOT_PNG.sha256, size: 1.5 },
      { sha256: DOT_PNG.sha256, size: '3' },
    ]) {
      const value = user({ type: 'blob', mime_type: 'image/png', ...digest });
      expect(filesOf(normalizeSpanMessages(attrs({ 'gen_ai.input.messages': value }), []))).toEqual([]);
    }
  });

  it('reads text over 64 KiB that kept a prefix as text, saying the whole text is the file keyed at content', () => {
    const value = user({
      type: 'blob',
      mime_type: 'text/plain',
      modality: 'document',
      content: 'Once upon',
      sha256: 'c'.repeat(64),
      size: 70_000,
    });
    const listed = [
      entry('gen_ai.input.messages#/0/parts/0/content', 'c'.repeat(64), 70_000, 'text/plain', 'story.txt'),
    ];
    const result = normalizeSpanMessages(attrs({ 'gen_ai.input.messages': value }), listed);
    expect(result.messages[0]?.parts).toEqual([
      {
        type: 'text',
        text: 'Once upon',
        at: { attribute: 'gen_ai.input.messages', pointer: '/0/parts/0/content' },
        prefixOf: {
          key: 'gen_ai.input.messages#/0/parts/0/content',
          sha256: 'c'.repeat(64),
          size: 70_000,
          contentType: 'text/plain',
          name: 'story.txt',
          form: 'digest',
        },
      },
    ]);
  });

  it('reads a whole-value data: URL in digest form (the GenAI blob part as JSON text), keyed <attribute>#', () => {
    const blob = {
      type: 'blob',
      mime_type: 'image/png',
      modality: 'image',
      sha256: DOT_PNG.sha256,
      size: DOT_PNG.size,
    };
    const result = normalizeSpanMessages(attrs({ 'metadata.photo': JSON.stringify(blob) }), []);
    expect(result.belowMessages).toEqual([
      {
        type: 'file',
        file: {
          key: 'metadata.photo#',
          sha256: DOT_PNG.sha256,
          size: DOT_PNG.size,
          contentType: 'image/png',
          form: 'digest',
        },
        at: { attribute: 'metadata.photo', pointer: '' },
      },
    ]);
  });

  it('says a value over 1 MiB that kept its 16 KiB prefix is a prefix of the uploaded value', () => {
    const prefix = '[{"role":"user","parts":[{"type":"text","content":"aaaa';
    const listed = [entry('gen_ai.input.messages#', 'd'.repeat(64), 2_000_000, 'application/json')];
    const result = normalizeSpanMessages(attrs({ 'gen_ai.input.messages': prefix }), listed);
    expect(result.messages).toEqual([
      {
        direction: 'input',
        role: 'input',
        parts: [
          {
            type: 'text',
            text: prefix,
            at: { attribute: 'gen_ai.input.messages', pointer: '' },
            prefixOf: {
              key: 'gen_ai.input.messages#',
              sha256: 'd'.repeat(64),
              size: 2_000_000,
              contentType: 'application/json',
              form: 'digest',
            },
          },
        ],
        at: { attribute: 'gen_ai.input.messages', pointer: '' },
        convention: 'GenAI semantic conventions',
      },
    ]);
  });

  it('accepts the assistant audio digest on the message itself as well as in audio', () => {
    const response = {
      choices: [
        {
          message: {
            role: 'assistant',
            audio: { id: 'a1', transcript: 'Beep.' },
            sha256: TONE_PCM.sha256,
            size: TONE_PCM.size,
          },
        },
      ],
    };
    const [file] = filesOf(normalizeSpanMessages(attrs({ 'output.value': response }), []));
    expect(file).toMatchObject({
      key: 'output.value#/choices/0/message',
      sha256: TONE_PCM.sha256,
      form: 'digest',
    });
  });
});

describe('files still inline (a plain OpenTelemetry exporter)', () => {
  it('computes the digest of the decoded bytes, whatever the encoding', () => {
    const base64 = DOT_PNG.base64;
    const urlSafe = base64.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
    const value = user(
      { type: 'blob', mime_type: 'image/png', content: base64 },
      { type: 'blob', mime_type: 'image/png', content: urlSafe },
      { type: 'blob', content: `data:image/png;base64,${base64}` },
    );
    const attributes = attrs({ 'gen_ai.input.messages': value });
    const files = filesOf(normalizeSpanMessages(attributes, []));
    expect(files.map((f) => [f.sha256, f.size, f.contentType, f.form])).toEqual(
      Array(3).fill([DOT_PNG.sha256, DOT_PNG.size, 'image/png', 'inline']),
    );
    expect(files.map((f) => f.bytesAt?.pointer)).toEqual([
      '/0/parts/0/content',
      '/0/parts/1/content',
      '/0/parts/2/content',
    ]);
    for (const file of files)
      expect(Buffer.from(inlineFileBytes(attributes, undefined, file)!)).toEqual(Buffer.from(DOT_PNG.bytes));
  });

  it('is no file when the bytes are not base64 (whitespace, other characters, misplaced padding)', () => {
    for (const content of [`${DOT_PNG.base64.slice(0, 8)} ${DOT_PNG.base64.slice(8)}`, 'abc$', 'ab=c', 'a']) {
      const value = user({
        type: 'image',
        source: { type: 'base64', media_type: 'image/png', data: content },
      });
      expect(filesOf(normalizeSpanMessages(attrs({ 'input.value': value }), []))).toEqual([]);
    }
  });

  it('lists raw 16-bit PCM as audio/pcm with rate and channels, and without a valid rate as it is', () => {
    const part = (mimeType: string) => ({ inlineData: { mimeType, data: TONE_PCM.base64 } });
    const value = {
      contents: [
        {
          role: 'user',
          parts: [
            part('audio/L16;rate=16000;channels=2'),
            part('audio/x-pcm;rate=48000'),
            part('audio/pcm'),
            part('audio/L16;rate=4000'),
          ],
        },
      ],
    };
    const files = filesOf(normalizeSpanMessages(attrs({ 'input.value': value }), []));
    expect(files.map((f) => f.contentType)).toEqual([
      'audio/pcm;rate=16000;channels=2',
      'audio/pcm;rate=48000;channels=1',
      'audio/pcm',
      'audio/l16',
    ]);
  });

  it('keeps text media of at most 64 KiB as text, and reads larger text as a file', () => {
    // text that is not base64 (a comma and a space are outside its alphabet)
    const small = 'ab, '.repeat(16 * 1024);
    const large = `${small}!`;
    const value = user(
      { type: 'blob', mime_type: 'text/plain', content: small },
      { type: 'blob', mime_type: 'text/plain', content: large },
      { type: 'blob', mime_type: 'image/png', content: 'not bytes, just words' },
    );
    const result = normalizeSpanMessages(attrs({ 'gen_ai.input.messages': value }), []);
    const parts = result.messages[0]!.parts;
    expect(parts.map((p) => p.type)).toEqual(['text', 'file', 'other']);
    expect(parts[0]).toMatchObject({ type: 'text', text: small });
    expect(parts[1]).toMatchObject({
      type: 'file',
      file: {
        key: 'gen_ai.input.messages#/0/parts/1/content',
        sha256: sha256(large),
        size: large.length,
        contentType: 'text/plain',
      },
    });
  });

  it('reads a whole data: URL string anywhere in a message, and never the uri of a GenAI uri part', () => {
    const dataUrl = `data:image/png;name=dot.png;base64,${DOT_PNG.base64}`;
    const value = user({ type: 'text', content: dataUrl }, { type: 'uri', modality: 'image', uri: dataUrl });
    const result = normalizeSpanMessages(attrs({ 'gen_ai.input.messages': value }), []);
    expect(result.messages[0]!.parts.map((p) => p.type)).toEqual(['file', 'remote']);
    expect(filesOf(result)).toMatchObject([
      { key: 'gen_ai.input.messages#/0/parts/0/content', name: 'dot.png', contentType: 'image/png' },
    ]);
  });

  it('reads no file more than ten levels below the value', () => {
    const image = { type: 'image_url', image_url: { url: `data:image/png;base64,${DOT_PNG.base64}` } };
    const at = (levels: number) => {
      let value: unknown = image;
      for (let i = 0; i < levels; i++) value = { nested: value };
      return filesOf(normalizeSpanMessages(attrs({ metadata: value }), []));
    };
    expect(at(10)).toHaveLength(1);
    expect(at(11)).toEqual([]);
  });
});

describe('values that are text', () => {
  it('reads a value declared text/plain as one text part, never parsing it', () => {
    const json = JSON.stringify({
      messages: [{ role: 'user', content: `data:image/png;base64,${DOT_PNG.base64}` }],
    });
    const result = normalizeSpanMessages(
      attrs({ 'input.value': json, 'input.mime_type': 'text/plain; charset=utf-8' }),
      [],
    );
    expect(result.messages).toEqual([
      {
        direction: 'input',
        role: 'input',
        parts: [{ type: 'text', text: json, at: { attribute: 'input.value', pointer: '' } }],
        at: { attribute: 'input.value', pointer: '' },
        convention: 'OpenInference',
      },
    ]);
  });

  it('reads a value that does not parse, or holds an integer past 2^53, as one text part', () => {
    for (const text of [
      '[{"role":"user"',
      '{"messages":[{"role":"user","content":"hi"}],"seed":9007199254740993}',
      'plain words',
    ]) {
      const result = normalizeSpanMessages(attrs({ 'gen_ai.input.messages': text }), []);
      expect(result.messages.map((m) => m.parts)).toEqual([
        [{ type: 'text', text, at: { attribute: 'gen_ai.input.messages', pointer: '' } }],
      ]);
    }
  });
});
