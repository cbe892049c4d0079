import { readFileSync, rmSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  blobPath,
  blobsAttribute,
  call,
  entryOf,
  fileEvent,
  ingest,
  sha256Of,
  upload,
} from '../test-support/media-fixtures.js';
import {
  jsonSpan,
  logsRequest,
  newSpanId,
  newTraceId,
  str,
  tracesRequest,
} from '../test-support/otlp-fixtures.js';
import { useServer } from '../test-support/server-fixture.js';

const fx = useServer();

const cat = readFileSync(new URL('../../../../fixtures/media/cat.png', import.meta.url));
const dot = readFileSync(new URL('../../../../fixtures/media/dot.png', import.meta.url));
const pdf = readFileSync(new URL('../../../../fixtures/media/report.pdf', import.meta.url));
const sha = (bytes: Uint8Array) => sha256Of(bytes);
const LANGFUSE_REF =
  '@@@langfuseMedia:type=image/jpeg|id=cc48838a-3da8-4ca4-a007-2cf8df930e69|source=base64_data_uri@@@';
const SECRET_TEXT = 'What is in this picture? secret-question-7f3';
const ANSWER = 'A cat sitting on a mat. secret-answer-2c1';

const t = { traceId: '', spanId: '', logSpan: '' };

/**
 * A model call recorded by the SDK: its input holds the cat in digest form (uploaded), a dot still
 * inline (a plain exporter sent it), a web URL and a Langfuse media reference; its output is text
 * and a tool call; below the messages: a PDF recorded with `svc.file` (not uploaded), an attachment
 * in metadata, and a large value uploaded whole; a failed tool status; a correlated log.
 */
beforeAll(async () => {
  t.traceId = newTraceId();
  t.spanId = newSpanId();
  const input = [
    {
      role: 'user',
      parts: [
        { type: 'text', content: SECRET_TEXT },
        { type: 'blob', modality: 'image', mime_type: 'image/png', sha256: sha(cat), size: cat.length },
        { type: 'blob', modality: 'image', mime_type: 'image/png', content: dot.toString('base64') },
        { type: 'uri', modality: 'image', uri: 'https://images.example.com/cats/42.png' },
        { type: 'text', content: LANGFUSE_REF },
      ],
    },
  ];
  const output = [
    {
      role: 'assistant',
      parts: [
        { type: 'text', content: ANSWER },
        { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } },
      ],
      finish_reason: 'tool_call',
    },
  ];
  const large = 'x'.repeat(16 * 1024);
  await upload(fx.server, t.traceId, cat, { key: 'gen_ai.input.messages#/0/parts/1' });
  await ingest(
    fx.server,
    'traces',
    tracesRequest([
      jsonSpan(t.traceId, {
        spanId: t.spanId,
        name: 'chat gpt-4o',
        status: { code: 2, message: 'the tool failed: secret-status-9aa' },
        attributes: [
          str('gen_ai.operation.name', 'chat'),
          str('gen_ai.request.model', 'gpt-4o'),
          str('gen_ai.input.messages', JSON.stringify(input)),
          str('gen_ai.output.messages', JSON.stringify(output)),
          str('app.note', large),
          str('tenant', 'acme'),
          blobsAttribute([
            entryOf(cat, { key: 'gen_ai.input.messages#/0/parts/1' }),
            { key: 'app.note#', sha256: 'a'.repeat(64), size: 2_000_000, content_type: 'text/plain' },
          ]),
        ],
        events: [
          fileEvent(pdf, { role: 'output', mediaType: 'application/pdf', name: 'report.pdf' }),
          {
            name: 'exception',
            timeUnixNano: '1763740800500000000',
            attributes: [
              str('exception.type', 'ToolError'),
              str('exception.message', 'secret-exception-41b'),
            ],
          },
        ],
      }),
    ]),
  );
  await ingest(
    fx.server,
    'logs',
    logsRequest([
      {
        traceId: t.traceId,
        spanId: t.spanId,
        timeUnixNano: '1763740800600000000',
        eventName: 'gen_ai.user.message',
        body: { kvlistValue: { values: [str('content', 'secret-log-body-5e0')] } },
        attributes: [str('gen_ai.system', 'openai')],
      },
    ]),
  );
});

async function detail(query = '', key = fx.server.keys.read, traceId = t.traceId, spanId = t.spanId) {
  const res = await call(fx.server, `/api/v1/traces/${traceId}/spans/${spanId}${query}`, { key });
  return {
    status: res.status,
    text: await res.clone().text(),
    // biome-ignore lint/suspicious/noExplicitAny: the test reads the JSON answer by path
    body: (await res.json()) as Record<string, any>,
  };
}

describe('spanDetail (GET /api/v1/traces/{traceId}/spans/{spanId})', () => {
  it('shows the messages normalized, with every file in place and its state', async () => {
    const { status, body } = await detail('?includeContent=true');
    expect(status).toBe(200);
    expect(body.contentIncluded).toBe(true);
    expect(body.span).toMatchObject({
      spanId: t.spanId,
      name: 'chat gpt-4o',
      model: 'gpt-4o',
      status: 'ERROR',
      errorType: 'ToolError',
      statusMessage: 'the tool failed: secret-status-9aa',
      eventCount: 2,
      logCount: 1,
    });
    const [user, assistant] = body.messages;
    expect(user).toMatchObject({
      direction: 'input',
      role: 'user',
      convention: 'GenAI semantic conventions',
    });
    expect(user.parts.map((p: { type: string }) => p.type)).toEqual([
      'text',
      'file',
      'file',
      'remote',
      'remote',
    ]);
    expect(user.parts[0]).toMatchObject({ type: 'text', text: SECRET_TEXT });
    expect(user.parts[1].file).toEqual({
      key: 'gen_ai.input.messages#/0/parts/1',
      sha256: sha(cat),
      size: cat.length,
      contentType: 'image/png',
      state: 'stored',
      form: 'digest',
      where: 'message',
    });
    // Inline bytes a plain exporter left in the record: a file too, its digest computed by the server.
    expect(user.parts[2].file).toMatchObject({
      sha256: sha(dot),
      size: dot.length,
      form: 'inline',
      state: 'not uploaded',
    });
    expect(user.parts[3].reference).toMatchObject({
      kind: 'uri',
      link: true,
      uri: 'https://images.example.com/cats/42.png',
    });
    expect(user.parts[4].reference).toMatchObject({
      kind: 'media_reference',
      platform: 'Langfuse',
      id: 'cc48838a-3da8-4ca4-a007-2cf8df930e69',
      mediaType: 'image/jpeg',
    });
    expect(assistant).toMatchObject({ direction: 'output', role: 'assistant', finishReason: 'tool_call' });
    expect(assistant.parts[1]).toMatchObject({
      type: 'tool_call',
      id: 'call_1',
      name: 'get_weather',
      arguments: { city: 'Paris' },
    });
    expect(body.messageAttributes).toEqual(
      expect.arrayContaining(['gen_ai.input.messages', 'gen_ai.output.messages']),
    );
  });

  it('lists the files below the messages, remote references and large values', async () => {
    const { body } = await detail('?includeContent=true');
    const files = Object.fromEntries(body.files.map((f: { key: string }) => [f.key, f]));
    expect(files[`event:svc.file:${sha(pdf)}`]).toEqual({
      key: `event:svc.file:${sha(pdf)}`,
      sha256: sha(pdf),
      size: pdf.length,
      contentType: 'application/pdf',
      name: 'report.pdf',
      state: 'not uploaded',
      form: 'digest',
      where: 'event',
      role: 'output',
    });
    expect(body.files[0].key).toBe('gen_ai.input.messages#/0/parts/1');
    expect(body.remoteReferences.map((r: { kind: string }) => r.kind)).toEqual(['uri', 'media_reference']);
    expect(body.largeValues).toEqual([
      {
        attribute: 'app.note',
        key: 'app.note#',
        sha256: 'a'.repeat(64),
        size: 2_000_000,
        contentType: 'text/plain',
        state: 'not uploaded',
        prefixSize: 16 * 1024,
        prefix: 'x'.repeat(16 * 1024),
      },
    ]);
    expect(body.logs).toHaveLength(1);
    expect(body.logs[0]).toMatchObject({
      eventName: 'gen_ai.user.message',
      bodyType: 'kvlist',
      body: { content: 'secret-log-body-5e0' },
    });
    expect(body.events.map((e: { name: string }) => e.name)).toEqual(['svc.file', 'exception']);
  });

  it('leaves every piece of recorded content out without includeContent, showing presence and size', async () => {
    const { body, text } = await detail();
    expect(body.contentIncluded).toBe(false);
    for (const secret of [
      SECRET_TEXT,
      ANSWER,
      'secret-status-9aa',
      'secret-exception-41b',
      'secret-log-body-5e0',
      'Paris',
      'images.example.com',
      'xxxxxxxx',
    ]) {
      expect(text, secret).not.toContain(secret);
    }
    const [user, assistant] = body.messages;
    expect(user.parts[0]).toEqual({
      type: 'text',
      size: Buffer.byteLength(SECRET_TEXT),
      withheld: true,
      at: { attribute: 'gen_ai.input.messages', pointer: '/0/parts/0/content' },
    });
    expect(assistant.parts[1]).toMatchObject({
      type: 'tool_call',
      name: 'get_weather',
      size: 16,
      withheld: true,
    });
    expect(user.parts[3].reference).toEqual({
      kind: 'uri',
      link: true,
      objectStore: false,
      withheld: true,
    });
    // Files keep their digest, type, size and state.
    expect(user.parts[1].file).toMatchObject({ sha256: sha(cat), state: 'stored' });
    expect(body.span.statusMessageSize).toBe(Buffer.byteLength('the tool failed: secret-status-9aa'));
    expect(body.logs[0]).toMatchObject({ bodyWithheld: true, bodyType: 'kvlist' });
    expect(body.largeValues[0]).toMatchObject({ prefixSize: 16 * 1024 });
    expect(body.largeValues[0]).not.toHaveProperty('prefix');
    const attributes = Object.fromEntries(body.attributes.map((a: { key: string }) => [a.key, a]));
    expect(attributes.tenant).toMatchObject({ value: 'acme', content: false });
    const exception = body.events[1].attributes.find((a: { key: string }) => a.key === 'exception.message');
    expect(exception).toMatchObject({ content: true, withheld: true, size: 'secret-exception-41b'.length });
  });

  it('shows a file whose stored bytes cannot be read as unavailable', async () => {
    const traceId = newTraceId();
    const spanId = newSpanId();
    const bytes = Buffer.from('bytes that will go missing from the store');
    await upload(fx.server, traceId, bytes, { key: 'gen_ai.input.messages#/0/parts/0' });
    await ingest(
      fx.server,
      'traces',
      tracesRequest([
        jsonSpan(traceId, { spanId, attributes: [blobsAttribute([entryOf(bytes, { key: 'att#' })])] }),
      ]),
    );
    expect((await detail('', fx.server.keys.read, traceId, spanId)).body.files[0]).toMatchObject({
      state: 'stored',
    });
    rmSync(blobPath(fx.server, sha(bytes)));
    expect((await detail('', fx.server.keys.read, traceId, spanId)).body.files[0]).toMatchObject({
      sha256: sha(bytes),
      state: 'unavailable',
    });
  });

  it('refuses unknown spans, bad IDs and keys that do not browse traces', async () => {
    expect((await detail('', fx.server.keys.read, t.traceId, newSpanId())).status).toBe(404);
    expect((await detail('', fx.server.keys.read, newTraceId(), t.spanId)).status).toBe(404);
    expect((await detail('', fx.server.keys.read, t.traceId, 'XYZ')).status).toBe(400);
    expect((await detail('?includeContent=yes')).status).toBe(400);
    expect((await detail('', fx.server.keys.readWrite)).status).toBe(200);
    for (const key of [fx.server.keys.tracing, fx.server.keys.setup, fx.server.keys.machine]) {
      expect((await detail('?includeContent=true', key)).status).toBe(403);
    }
  });
});
