import { describe, expect, it } from 'vitest';
import {
  allMessageFixtures,
  attributeText,
  blobKey,
  type MessageFixture,
} from '../../../../../fixtures/messages/index.js';
import { digestFormOf, fixtureAttributes, toAnyValue } from './__fixtures__/digest-form.js';
import { inlineFileBytes } from './inline-file-bytes.js';
import type { MessagePart, NormalizedMessages } from './message-types.js';
import { normalizeLogMessages } from './normalize-log-messages.js';
import { normalizeSpanMessages } from './normalize-span-messages.js';
import { placedFiles } from './parts/parts-reader.js';

/** Every part of the messages, tool results' parts included, in reading order. */
function allParts(parts: readonly MessagePart[]): MessagePart[] {
  return parts.flatMap((part) => (part.type === 'tool_result' ? [part, ...allParts(part.parts)] : [part]));
}

function filesOf(result: NormalizedMessages) {
  return [...placedFiles(result.messages.flatMap((m) => m.parts)), ...result.belowMessages].flatMap(
    (placed) => (placed.type === 'file' ? [placed.file] : []),
  );
}

function expectedFiles(fixture: MessageFixture) {
  return fixture.files.map((file) => ({
    key: blobKey(fixture, file),
    sha256: file.sha256,
    size: file.size,
    contentType: file.mediaType,
    ...(file.name === undefined ? {} : { name: file.name }),
  }));
}

function listedForm(files: ReturnType<typeof filesOf>) {
  return files.map(({ key, sha256, size, contentType, name }) => ({
    key,
    sha256,
    size,
    contentType,
    ...(name === undefined ? {} : { name }),
  }));
}

function normalizeRecorded(fixture: MessageFixture): NormalizedMessages {
  if (fixture.attribute === 'body')
    return normalizeLogMessages(fixture.eventName!, toAnyValue(fixture.value), [], []);
  return normalizeSpanMessages(fixtureAttributes(fixture), []);
}

function kind(part: MessagePart): string {
  return part.type === 'tool_result' ? `tool_result(${part.parts.map(kind).join(' ')})` : part.type;
}

/** The messages as `role: part kinds`, written from each fixture's format. */
const SHAPES: Record<string, string[]> = {
  'openai-chat: user message with image_url data URL, input_audio and file_data': [
    'system: text',
    'user: text file file file',
  ],
  'openai-chat: assistant message audio (wav)': ['user: text', 'assistant: file text'],
  'openai-chat: assistant message audio as raw pcm16': ['user: text', 'assistant: file text'],
  'openai-responses: input_image data URL and input_file file_data': ['system: text', 'user: text file file'],
  'anthropic: image and document base64 sources, text document, image in a tool_result': [
    'user: text file file text',
    'assistant: tool_call',
    'user: tool_result(file)',
  ],
  'gemini: inlineData image and PDF in a request': ['user: text file file'],
  'gemini: speech response with raw L16 PCM inlineData': ['model: file'],
  'gemini: Python google-genai request in snake case (inline_data)': ['user: text file'],
  'bedrock-converse: image and document bytes, image in a toolResult': [
    'system: text',
    'user: text file file',
    'assistant: tool_call',
    'user: tool_result(file)',
  ],
  'mcp: CallToolResult with image, audio, blob resource and text resource': [
    'tool: tool_result(text file file file text)',
  ],
  'ai-sdk v7: ai.prompt with base64, data URL and Uint8Array parts': [
    'user: text file file other other file file',
  ],
  'ai-sdk v7: ai.prompt.messages, every part a file part with base64 data': [
    'user: text file file file file file file',
  ],
  'ai-sdk v7: gen_ai.input.messages blob parts from @ai-sdk/otel OpenTelemetry': [
    'user: text file file file file file file',
  ],
  'ai-sdk v6: ai.prompt with a numbered-byte image that is not a file': ['user: text file file other'],
  'ai-sdk v6: ai.prompt.messages with base64 file parts': ['user: text file file file'],
  'ai-sdk v6: telemetry metadata value that is one data: URL': [],
  'genai: gen_ai.input.messages with image and audio blob parts': ['system: text', 'user: text file file'],
  'genai: gen_ai.output.messages with a generated image blob': ['assistant: text file'],
  'genai: gen_ai.user.message log event body with an OpenAI image_url part': ['user: text file'],
  'openinference: flattened image url attribute holding a whole data: URL': ['input: file'],
  'openinference: metadata with a data: URL value': [],
  'openllmetry: gen_ai.prompt.0.content holding the JSON of an OpenAI parts list': ['input: text file file'],
  'openllmetry: traceloop.entity.input with a data: URL argument': ['input: other file'],
  'langfuse: observation input with an OpenAI image_url data URL': ['system: text', 'user: text file'],
  'langfuse: trace metadata with a data: URL value': [],
  'remote: OpenAI chat image_url https URL and file_id': ['user: text remote remote'],
  'remote: OpenAI Responses input_image file_id and input_file file_url': ['user: remote remote'],
  'remote: Anthropic image url source and document file source': ['user: remote remote'],
  'remote: Gemini fileData with gs:// and Files API URIs': ['user: remote remote'],
  'remote: Bedrock Converse image from s3Location': ['user: text remote'],
  'remote: GenAI uri parts (https and data: URL) and a file part': ['user: remote remote remote'],
  'remote: Langfuse media reference in an observation input': ['user: text remote'],
  'remote: MCP resource_link': ['tool: tool_result(text remote)'],
  'remote: OpenInference flattened image url attribute holding an https URL': ['input: remote'],
  'tool-string: OpenAI tool message content holding an MCP CallToolResult image as JSON text': [
    'user: text',
    'assistant: tool_call',
    'tool: tool_result(file text)',
  ],
  'inline-text: OpenAI file part with a CSV data URL': ['user: text text'],
  'inline-text: metadata value that is a percent-encoded Markdown data URL': [],
};

const REMOTE_REASON = /remote reference|held in that platform|is a reference/;

describe('normalizing the recorded-message fixtures', () => {
  it('has an expected shape for every fixture', () => {
    expect(Object.keys(SHAPES).sort()).toEqual(allMessageFixtures.map((f) => f.name).sort());
  });

  describe.each(allMessageFixtures.map((fixture) => [fixture.name, fixture] as const))(
    '%s',
    (_name, fixture) => {
      it('reads the messages as the format says', () => {
        const result = normalizeRecorded(fixture);
        expect(result.messages.map((m) => `${m.role}: ${m.parts.map(kind).join(' ')}`)).toEqual(
          SHAPES[fixture.name],
        );
        if (result.messages.length > 0) expect(result.readAttributes).toContain(fixture.attribute);
      });

      it('finds every inline file in place, with the digest of its bytes', () => {
        const result = normalizeRecorded(fixture);
        const files = filesOf(result);
        expect(listedForm(files)).toEqual(expectedFiles(fixture));
        const attributes = fixture.attribute === 'body' ? [] : fixtureAttributes(fixture);
        const body = fixture.attribute === 'body' ? toAnyValue(fixture.value) : undefined;
        for (const file of files) {
          expect(file.form).toBe('inline');
          expect(inlineFileBytes(attributes, body, file)?.length).toBe(file.size);
        }
      });

      it('keeps every kept place as a reference or text, never a file', () => {
        const result = normalizeRecorded(fixture);
        const parts = [...result.messages.flatMap((m) => allParts(m.parts)), ...result.belowMessages].filter(
          (part) => part.at.attribute === fixture.attribute,
        );
        for (const kept of fixture.kept ?? []) {
          const inside = (pointer: string) =>
            pointer === kept.pointer || pointer.startsWith(`${kept.pointer}/`);
          const covering = parts.filter(
            (part) => inside(part.at.pointer) || kept.pointer.startsWith(`${part.at.pointer}/`),
          );
          expect(
            covering.filter((part) => part.type === 'file'),
            kept.reason,
          ).toEqual([]);
          if (REMOTE_REASON.test(kept.reason)) {
            expect(
              covering.map((part) => part.type),
              kept.reason,
            ).toContain('remote');
          } else if (
            /stays (text|inline)/.test(kept.reason) &&
            result.readAttributes.includes(fixture.attribute)
          ) {
            expect(
              covering.map((part) => part.type),
              kept.reason,
            ).toContain('text');
          }
        }
      });

      if (fixture.files.length === 0) return;
      it('finds the same files in digest form, matched to their svc.blobs entries', () => {
        const { text, body, listed } = digestFormOf(fixture);
        const result =
          fixture.attribute === 'body'
            ? normalizeLogMessages(fixture.eventName!, toAnyValue(body), [], listed)
            : normalizeSpanMessages(fixtureAttributes(fixture, text), listed);
        const files = filesOf(result);
        expect(listedForm(files)).toEqual(expectedFiles(fixture));
        for (const file of files) {
          expect(file.form).toBe('digest');
          expect(file.bytesAt).toBeUndefined();
        }
        // the record holds each file's digest, and no longer its bytes
        for (const file of fixture.files) expect(JSON.stringify(body)).toContain(file.sha256);
        expect(text.length).toBeLessThan(attributeText(fixture).length);
      });
    },
  );
});

describe('what the fixtures say, read', () => {
  const byName = (name: string) =>
    normalizeRecorded(allMessageFixtures.find((f) => f.name.startsWith(name))!);
  const texts = (result: NormalizedMessages) =>
    result.messages.flatMap((m) => allParts(m.parts)).flatMap((p) => (p.type === 'text' ? [p.text] : []));

  it('reads roles, texts and conventions of an OpenAI chat request in input.value', () => {
    const result = byName('openai-chat: user message');
    expect(texts(result)).toEqual([
      'You describe attachments briefly.',
      'What is in the picture, the recording and the report?',
    ]);
    expect(result.messages.map((m) => [m.direction, m.convention])).toEqual([
      ['input', 'OpenInference'],
      ['input', 'OpenInference'],
    ]);
  });

  it('reads an Anthropic text document and tool use as they are', () => {
    const result = byName('anthropic:');
    expect(texts(result)).toContain('Revenue up 4%. The cat approves.');
    const call = result.messages[1]!.parts[0]!;
    expect(call).toMatchObject({
      type: 'tool_call',
      id: 'toolu_01',
      name: 'take_screenshot',
      arguments: { window: 'chart' },
    });
    expect(result.messages[2]!.parts[0]).toMatchObject({ type: 'tool_result', id: 'toolu_01' });
  });

  it('reads the text a CSV data URL of at most 64 KiB holds as text', () => {
    expect(texts(byName('inline-text: OpenAI file part'))).toContain('sku,price\nA-1,9.50\nB-2,12.00\n');
  });

  it('reads an MCP text resource as text and a JSON-encoded tool result as its parts', () => {
    expect(texts(byName('mcp:'))).toEqual([
      'Rendered the chart, recorded the alert and attached the report.',
      '# Q3\nRevenue up 4%.',
    ]);
    const tool = byName('tool-string:').messages[2]!;
    expect(tool.parts[0]).toMatchObject({ type: 'tool_result', id: 'call_7' });
    expect(texts(byName('tool-string:'))).toContain('Chart rendered.');
  });

  it('says what each remote reference is', () => {
    const references = (name: string) =>
      byName(name)
        .messages.flatMap((m) => allParts(m.parts))
        .flatMap((p) => (p.type === 'remote' ? [p.reference] : []));
    expect(references('remote: OpenAI chat')).toEqual([
      { kind: 'uri', uri: 'https://images.example.com/cats/42.png', objectStore: false },
      { kind: 'file_id', fileId: 'file-6F2ksmvXxt4VdoqmHRw6kL', provider: 'openai' },
    ]);
    expect(references('remote: Anthropic')).toEqual([
      { kind: 'uri', uri: 'https://images.example.com/cats/42.png', objectStore: false },
      { kind: 'file_id', fileId: 'file_011CNha8iCJcU1wXNR6q4V8w', provider: 'anthropic' },
    ]);
    expect(references('remote: Gemini')).toEqual([
      { kind: 'uri', uri: 'gs://example-bucket/cats/42.png', objectStore: true, mediaType: 'image/png' },
      {
        kind: 'file_id',
        fileId: 'files/abc123xyz',
        provider: 'gemini',
        uri: 'https://generativelanguage.googleapis.com/v1beta/files/abc123xyz',
        mediaType: 'application/pdf',
      },
    ]);
    expect(references('remote: Bedrock')).toEqual([
      { kind: 'uri', uri: 's3://example-bucket/cats/42.png', objectStore: true, mediaType: 'image/png' },
    ]);
    expect(references('remote: Langfuse')).toEqual([
      {
        kind: 'media_reference',
        id: '2f5d1c0e-8a4b-4c7e-9d31-6b0a7e5f4c21',
        platform: 'Langfuse',
        mediaType: 'image/png',
        reference:
          '@@@langfuseMedia:type=image/png|id=2f5d1c0e-8a4b-4c7e-9d31-6b0a7e5f4c21|source=base64_data_uri@@@',
      },
    ]);
    expect(references('remote: MCP resource_link')).toEqual([
      {
        kind: 'uri',
        uri: 'https://reports.example.com/2026/q3-report.pdf',
        objectStore: false,
        mediaType: 'application/pdf',
        name: 'q3-report.pdf',
      },
    ]);
    const genAi = references('remote: GenAI uri parts');
    expect(genAi.map((r) => r.kind)).toEqual(['uri', 'uri', 'file_id']);
    expect(genAi[1]).toMatchObject({ kind: 'uri', objectStore: false });
    expect((genAi[1] as { uri: string }).uri.startsWith('data:image/png;base64,')).toBe(true);
  });

  it('reads metadata files below the messages, leaving the attribute an attribute', () => {
    const result = byName('openinference: metadata');
    expect(result.messages).toEqual([]);
    expect(result.readAttributes).toEqual([]);
    expect(result.belowMessages.map((p) => p.at)).toEqual([{ attribute: 'metadata', pointer: '/avatar' }]);
  });
});
