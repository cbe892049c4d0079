import { describe, expect, it } from 'vitest';
import { DOT_PNG, REPORT_PDF } from '../../../../../fixtures/messages/media.js';
import { toAnyValue } from './__fixtures__/digest-form.js';
import { attrs, entry, filesOf, shape } from './__fixtures__/records.js';
import { inlineFileBytes } from './inline-file-bytes.js';
import { normalizeLogMessages } from './normalize-log-messages.js';

const dotUrl = `data:image/png;base64,${DOT_PNG.base64}`;

describe('GenAI log events', () => {
  it('reads each message event as an input message of its role, and gen_ai.choice as the output', () => {
    const read = (event: string, body: unknown) => normalizeLogMessages(event, toAnyValue(body), [], []);
    expect(shape(read('gen_ai.system.message', { content: 'Be brief.' }))).toEqual(['system: text']);
    expect(shape(read('gen_ai.system.message', 'Be brief.'))).toEqual(['system: text']);
    expect(
      read('gen_ai.assistant.message', {
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: { city: 'Paris' } } },
        ],
      }).messages,
    ).toMatchObject([
      {
        direction: 'input',
        role: 'assistant',
        parts: [{ type: 'tool_call', id: 'c1', name: 'get_weather' }],
      },
    ]);
    const tool = read('gen_ai.tool.message', {
      id: 'c1',
      content: JSON.stringify({ content: [{ type: 'image', data: DOT_PNG.base64, mimeType: 'image/png' }] }),
    });
    expect(tool.messages).toMatchObject([
      { role: 'tool', parts: [{ type: 'tool_result', id: 'c1', parts: [{ type: 'file' }] }] },
    ]);
    expect(filesOf(tool)[0]?.key).toBe('body#/content/content/0');
    const choice = read('gen_ai.choice', { index: 0, finish_reason: 'stop', message: { content: 'Sunny.' } });
    expect(choice.messages).toMatchObject([
      {
        direction: 'output',
        role: 'assistant',
        finishReason: 'stop',
        parts: [{ type: 'text', text: 'Sunny.' }],
        at: { attribute: 'body', pointer: '/message' },
      },
    ]);
    expect(choice.readAttributes).toEqual(['body']);
  });

  it('reads the inference-details record recordMessages() writes from its attributes, digest form matched to the log entries', () => {
    const input = [
      {
        role: 'user',
        parts: [
          { type: 'text', content: 'Read this.' },
          {
            type: 'blob',
            mime_type: 'application/pdf',
            modality: 'document',
            sha256: REPORT_PDF.sha256,
            size: REPORT_PDF.size,
          },
        ],
      },
    ];
    const result = normalizeLogMessages(
      'gen_ai.client.inference.operation.details',
      undefined,
      attrs({
        'gen_ai.input.messages': input,
        'gen_ai.output.messages': [{ role: 'assistant', parts: [{ type: 'text', content: 'Done.' }] }],
      }),
      [
        {
          ...entry(
            'gen_ai.input.messages#/0/parts/1',
            REPORT_PDF.sha256,
            REPORT_PDF.size,
            'application/pdf',
            'q3.pdf',
          ),
          record: 'log',
        },
      ],
    );
    expect(shape(result)).toEqual(['user: text file', 'assistant: text']);
    expect(filesOf(result)).toEqual([
      {
        key: 'gen_ai.input.messages#/0/parts/1',
        sha256: REPORT_PDF.sha256,
        size: REPORT_PDF.size,
        contentType: 'application/pdf',
        name: 'q3.pdf',
        form: 'digest',
      },
    ]);
  });

  it('reads another gen_ai event body only for files (below the messages), and no other event body', () => {
    const body = toAnyValue({ evaluation: { screenshot: dotUrl } });
    const other = normalizeLogMessages('gen_ai.evaluation.result', body, [], []);
    expect(other.messages).toEqual([]);
    expect(other.belowMessages).toMatchObject([
      { type: 'file', at: { attribute: 'body', pointer: '/evaluation/screenshot' } },
    ]);
    expect(normalizeLogMessages('app.audit', body, [], [])).toEqual({
      messages: [],
      belowMessages: [],
      readAttributes: [],
    });
  });

  it('reads bytes an OTLP bytesValue holds as an inline file, and serves them', () => {
    const body = toAnyValue({ content: [{ type: 'text', text: 'See.' }] });
    const part = {
      kvlistValue: {
        values: [
          { key: 'type', value: { stringValue: 'file' } },
          { key: 'mediaType', value: { stringValue: 'image/png' } },
          { key: 'data', value: { bytesValue: DOT_PNG.base64 } },
        ],
      },
    };
    (
      body as { kvlistValue: { values: { value: { arrayValue: { values: unknown[] } } }[] } }
    ).kvlistValue.values[0]!.value.arrayValue.values.push(part);
    const result = normalizeLogMessages('gen_ai.user.message', body, [], []);
    const [file] = filesOf(result);
    expect(file).toMatchObject({
      key: 'body#/content/1',
      sha256: DOT_PNG.sha256,
      contentType: 'image/png',
      form: 'inline',
      bytesAt: { attribute: 'body', pointer: '/content/1/data' },
    });
    expect(Buffer.from(inlineFileBytes([], body, file!)!)).toEqual(Buffer.from(DOT_PNG.bytes));
  });
});
