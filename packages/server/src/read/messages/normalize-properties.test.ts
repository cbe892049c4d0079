import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CAT_PNG, DOT_PNG, TONE_WAV } from '../../../../../fixtures/messages/media.js';
import type { ListedFile } from '../../media/listed-files.js';
import type { AnyValue, KeyValue } from '../../otlp/model.js';
import { toAnyValue } from './__fixtures__/digest-form.js';
import { inlineFileBytes } from './inline-file-bytes.js';
import type { MessageFile, MessagePart, NormalizedMessages } from './message-types.js';
import { normalizeLogMessages } from './normalize-log-messages.js';
import { normalizeSpanMessages } from './normalize-span-messages.js';
import { placedFiles } from './parts/parts-reader.js';

/** The attributes the normalizer reads (and a few it does not). */
const ATTRIBUTES = [
  'gen_ai.input.messages',
  'gen_ai.output.messages',
  'gen_ai.system_instructions',
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.call.result',
  'ai.prompt',
  'ai.prompt.messages',
  'ai.response.toolCalls',
  'ai.response.files',
  'ai.toolCall.result',
  'input.value',
  'output.value',
  'tool.parameters',
  'metadata',
  'ai.telemetry.metadata.photo',
  'llm.input_messages.0.message.contents.0.message_content.image.image.url',
  'gen_ai.prompt.0.content',
  'gen_ai.completion.0.content',
  'traceloop.entity.input',
  'langfuse.observation.output',
  'langfuse.trace.metadata',
  'tool_response',
  'custom.attribute',
];
const EVENTS = [
  'gen_ai.user.message',
  'gen_ai.assistant.message',
  'gen_ai.tool.message',
  'gen_ai.choice',
  'gen_ai.client.inference.operation.details',
  'gen_ai.other',
  'app.event',
];

const SHA = 'ab'.repeat(32);

/** Strings that look like files, references or JSON, besides arbitrary ones. */
const fileishString = fc.oneof(
  fc.string(),
  fc.constantFrom(
    `data:image/png;base64,${DOT_PNG.base64}`,
    `data:audio/wav;base64,${TONE_WAV.base64}`,
    `data:text/plain;base64,${Buffer.from('hello').toString('base64')}`,
    'data:text/plain,hello%20there',
    'data:image/png;base64,not base64!',
    'data:,no type',
    CAT_PNG.base64,
    DOT_PNG.base64.slice(0, 21),
    'https://example.com/a.png',
    'gs://bucket/object',
    'file-abc123',
    '@@@langfuseMedia:type=image/png|id=abc|source=bytes@@@',
    '@@@langfuseMedia:broken',
    SHA,
    'image/png',
    'audio/L16;rate=24000',
    'audio/pcm',
    'base64',
    '{"type":"blob","mime_type":"image/png","sha256":"abababababababababababababababababababababababababababababababab","size":3}',
    JSON.stringify({ content: [{ type: 'image', data: DOT_PNG.base64, mimeType: 'image/png' }] }),
  ),
);

/** Keys of the formats' parts, so that random objects often look like parts. */
const partKey = fc.constantFrom(
  'type',
  'role',
  'content',
  'parts',
  'text',
  'data',
  'image',
  'image_url',
  'url',
  'file',
  'file_data',
  'file_id',
  'filename',
  'mime_type',
  'mimeType',
  'mediaType',
  'media_type',
  'source',
  'inlineData',
  'inline_data',
  'fileData',
  'bytes',
  'resource',
  'blob',
  'uri',
  'audio',
  'input_audio',
  'format',
  'sha256',
  'size',
  'messages',
  'choices',
  'message',
  'candidates',
  'contents',
  'input',
  'output',
  'tool_calls',
  'tool_call_id',
  'toolResult',
  'toolUse',
  'functionCall',
  'functionResponse',
  'arguments',
  'response',
  'value',
  'isError',
  'system',
  'prompt',
);
const partType = fc.constantFrom(
  'text',
  'image',
  'image_url',
  'input_audio',
  'file',
  'blob',
  'uri',
  'document',
  'resource',
  'resource_link',
  'tool_call',
  'tool_call_response',
  'tool_use',
  'tool_result',
  'tool-call',
  'tool-result',
  'input_image',
  'input_file',
  'function_call',
  'function_call_output',
  'reasoning',
  'media',
  'base64',
  'content',
  'json',
);

const { value: fileishJson } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fileishString,
    fc.constantFrom(SHA, 3, 0, -1, 2 ** 60, null, true, 1.5),
    fc.jsonValue({ maxDepth: 2 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(partKey, fc.string()), tie('value'), { maxKeys: 5 }),
    fc.record({ type: partType, data: tie('value'), mimeType: fileishString }, { requiredKeys: ['type'] }),
    fc.record({ type: partType, sha256: fc.constantFrom(SHA, 'x'), size: fc.constantFrom(3, -1, 2.5) }),
    fc.record({ role: fc.constantFrom('user', 'assistant', 'tool', 'system'), content: tie('value') }),
  ),
}));

function allParts(parts: readonly MessagePart[]): MessagePart[] {
  return parts.flatMap((part) => (part.type === 'tool_result' ? [part, ...allParts(part.parts)] : [part]));
}

function filesOf(result: NormalizedMessages): MessageFile[] {
  return [...placedFiles(result.messages.flatMap((m) => m.parts)), ...result.belowMessages].flatMap(
    (placed) => (placed.type === 'file' ? [placed.file] : []),
  );
}

/** Every file is held by the record: its bytes at `bytesAt`, or its digest in the recorded text. */
function expectHeld(
  result: NormalizedMessages,
  attributes: KeyValue[],
  body: AnyValue | undefined,
  text: string,
) {
  for (const file of filesOf(result)) {
    expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
    if (file.form === 'inline') {
      const bytes = inlineFileBytes(attributes, body, file);
      expect(bytes?.length).toBe(file.size);
    } else {
      expect(text).toContain(file.sha256);
    }
  }
  for (const part of result.messages.flatMap((m) => allParts(m.parts))) {
    // parts sit at most ten levels below their value's root (twelve tokens for a part's own members)
    expect(part.at.pointer.split('/').length - 1).toBeLessThanOrEqual(12);
  }
}

describe('normalizing any recorded value', () => {
  it('never throws, and every file it finds is held by the span', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...ATTRIBUTES), fileishJson, fc.boolean()), { maxLength: 4 }),
        (entries) => {
          const attributes: KeyValue[] = entries.map(([key, value, asText]) => ({
            key,
            value:
              asText && typeof value === 'string'
                ? { stringValue: value }
                : { stringValue: JSON.stringify(value) ?? 'null' },
          }));
          const result = normalizeSpanMessages(attributes, []);
          expectHeld(result, attributes, undefined, JSON.stringify(attributes));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('never throws on log bodies and structured attribute values, and finds only held files', () => {
    fc.assert(
      fc.property(fc.constantFrom(...EVENTS), fileishJson, fileishJson, (eventName, body, attribute) => {
        const anyBody = toAnyValue(body);
        const attributes: KeyValue[] = [{ key: 'gen_ai.input.messages', value: toAnyValue(attribute) }];
        const result = normalizeLogMessages(eventName, anyBody, attributes, []);
        expectHeld(result, attributes, anyBody, JSON.stringify([anyBody, attributes]));
      }),
      { numRuns: 300 },
    );
  });

  it('takes type and name from listed entries only for digests the value holds', () => {
    fc.assert(
      fc.property(fileishJson, (value) => {
        const text = JSON.stringify(value) ?? 'null';
        const listed: ListedFile[] = [
          {
            key: 'input.value#',
            sha256: SHA,
            size: 3,
            contentType: 'image/png',
            name: 'x.png',
            role: null,
            spanId: '00f067aa0ba902b7',
            record: 'span',
            listed: true,
          },
        ];
        const attributes: KeyValue[] = [{ key: 'input.value', value: { stringValue: text } }];
        const result = normalizeSpanMessages(attributes, listed);
        expectHeld(result, attributes, undefined, text);
      }),
      { numRuns: 200 },
    );
  });
});

describe('deeply nested values', () => {
  const dataUrl = `data:image/png;base64,${DOT_PNG.base64}`;

  function nested(levels: number, leaf: unknown, object: boolean): unknown {
    let value = leaf;
    for (let i = 0; i < levels; i++) value = object ? { content: value } : [value];
    return value;
  }

  /** The JSON text of `nested(levels, leaf, object)`, written without recursion. */
  function nestedText(levels: number, leaf: unknown, object: boolean): string {
    const [open, close] = object ? ['{"content":', '}'] : ['[', ']'];
    return `${open.repeat(levels)}${JSON.stringify(leaf)}${close.repeat(levels)}`;
  }

  /** `nested(levels, leaf, object)` as an `AnyValue`, built without recursion. */
  function nestedAnyValue(levels: number, leaf: string, object: boolean): AnyValue {
    let value: AnyValue = { stringValue: leaf };
    for (let i = 0; i < levels; i++) {
      value = object
        ? { kvlistValue: { values: [{ key: 'content', value }] } }
        : { arrayValue: { values: [value] } };
    }
    return value;
  }

  it('reads no file more than ten levels below a value, at any depth, without throwing', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5000 }), fc.boolean(), (levels, object) => {
        const text = nestedText(levels, dataUrl, object);
        const attributes: KeyValue[] = [{ key: 'metadata', value: { stringValue: text } }];
        const result = normalizeSpanMessages(attributes, []);
        expect(filesOf(result)).toHaveLength(levels <= 10 ? 1 : 0);
        expectHeld(result, attributes, undefined, text);
      }),
      { numRuns: 60 },
    );
  });

  it('reads values thousands of levels deep as messages, bodies and AnyValues without throwing', () => {
    for (const levels of [33, 100, 10_000]) {
      for (const object of [true, false]) {
        const text = nestedText(levels, dataUrl, object);
        const span = normalizeSpanMessages(
          ATTRIBUTES.map((key) => ({ key, value: { stringValue: text } })),
          [],
        );
        expect(filesOf(span)).toEqual([]);
        // JSON nested past 32 levels is kept as text
        const input = normalizeSpanMessages([{ key: 'input.value', value: { stringValue: text } }], []);
        expect(input.messages.map((m) => m.parts)).toEqual([
          [{ type: 'text', text, at: { attribute: 'input.value', pointer: '' } }],
        ]);
        const body = nestedAnyValue(levels, dataUrl, object);
        const log = normalizeLogMessages(
          'gen_ai.user.message',
          body,
          [{ key: 'gen_ai.input.messages', value: body }],
          [],
        );
        expect(filesOf(log)).toEqual([]);
      }
    }
  });

  it('reads JSON text in a string within the 32 levels the value has left, and no deeper', () => {
    const result = (levels: number) => {
      const inner = {
        content: [{ type: 'image', data: DOT_PNG.base64, mimeType: 'image/png' }],
        deep: nested(levels, 0, false),
      };
      // the attribute is the JSON text of a string holding the tool result's JSON text
      const text = JSON.stringify(JSON.stringify(inner));
      return filesOf(
        normalizeSpanMessages([{ key: 'gen_ai.tool.call.result', value: { stringValue: text } }], []),
      );
    };
    expect(result(30).map((file) => file.key)).toEqual(['gen_ai.tool.call.result#/content/0']);
    expect(result(32)).toEqual([]);
  });
});
