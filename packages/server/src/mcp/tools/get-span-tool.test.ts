import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SpanDetail } from '../../read/read-model-types.js';
import {
  blobsAttribute,
  entryOf,
  fileEvent,
  ingest,
  sha256Of,
  upload,
} from '../../test-support/media-fixtures.js';
import {
  jsonSpan,
  logsRequest,
  newSpanId,
  newTraceId,
  str,
  tracesRequest,
} from '../../test-support/otlp-fixtures.js';
import {
  ingestSpanWithLogs,
  LONG_BODY_AT,
  logBody,
  SPAN_LOG_COUNT,
} from '../../test-support/span-logs-fixture.js';
import type { AnswerCut } from '../budget/answer-cut.js';
import { withoutFileBytesInText } from '../file-bytes.js';
import { fileUri } from '../file-uri.js';
import { errorText, resultCharacters, structured } from '../test-support/mcp-clients.js';
import { useMcp } from '../test-support/mcp-fixture.js';
import { decodeCursor, encodeCursor } from '../tool-cursor.js';

const mcp = useMcp();
const cat = readFileSync(new URL('../../../../../fixtures/media/cat.png', import.meta.url));
const pdf = readFileSync(new URL('../../../../../fixtures/media/report.pdf', import.meta.url));
const notes = Buffer.from('plain text notes\n'.repeat(100));

const QUESTION = 'What is in this picture? secret-question-7f3';
const ANSWER = 'A cat on a mat. secret-answer-2c1';
const STATUS = 'the tool failed: secret-status-9aa';
const LOG_BODY = 'secret-log-body-5e0';
/** 50 MB of digits: the value at any offset is known. */
const PAYLOAD = '0123456789'.repeat(5_000_000);

const t = { traceId: '', spanId: '', bigSpan: '', wideSpan: '' };

beforeAll(async () => {
  t.traceId = newTraceId();
  t.spanId = newSpanId();
  t.bigSpan = newSpanId();
  t.wideSpan = newSpanId();
  const input = [
    {
      role: 'user',
      parts: [
        { type: 'text', content: QUESTION },
        { type: 'blob', modality: 'image', mime_type: 'image/png', sha256: sha256Of(cat), size: cat.length },
        { type: 'uri', modality: 'image', uri: 'https://images.example.com/cats/42.png' },
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
    },
  ];
  await upload(mcp.fx.server, t.traceId, cat, { key: 'gen_ai.input.messages#/0/parts/1' });
  await upload(mcp.fx.server, t.traceId, notes, { key: 'app.notes#', contentType: 'text/plain' });
  await ingest(
    mcp.fx.server,
    'traces',
    tracesRequest([
      jsonSpan(t.traceId, {
        spanId: t.spanId,
        name: 'chat gpt-4o',
        status: { code: 2, message: STATUS },
        attributes: [
          str('gen_ai.request.model', 'gpt-4o'),
          str('gen_ai.input.messages', JSON.stringify(input)),
          str('gen_ai.output.messages', JSON.stringify(output)),
          str('tenant', 'acme'),
          blobsAttribute([
            entryOf(cat, { key: 'gen_ai.input.messages#/0/parts/1' }),
            entryOf(notes, { key: 'event:svc.file:notes', content_type: 'text/plain' }),
          ]),
        ],
        events: [fileEvent(pdf, { role: 'output', mediaType: 'application/pdf', name: 'report.pdf' })],
      }),
      jsonSpan(t.traceId, { spanId: t.bigSpan, name: 'big', attributes: [str('app.payload', PAYLOAD)] }),
      jsonSpan(t.traceId, {
        spanId: t.wideSpan,
        name: 'wide',
        attributes: Array.from({ length: 300 }, (_, i) => str(`app.field.${i}`, `value ${i} `.repeat(100))),
      }),
    ]),
  );
  await ingest(
    mcp.fx.server,
    'logs',
    logsRequest([
      {
        traceId: t.traceId,
        spanId: t.spanId,
        timeUnixNano: '1763740800600000000',
        eventName: 'gen_ai.user.message',
        body: { kvlistValue: { values: [str('content', LOG_BODY)] } },
      },
    ]),
  );
});

type Answer = SpanDetail & { cuts: AnswerCut[] };

function withoutEnvelope(answer: Record<string, unknown>) {
  const { cuts: _cuts, size: _size, ...rest } = answer;
  return rest;
}

describe('get_span', () => {
  it('answers the span detail the read API answers, without recorded content by default', async () => {
    const result = await mcp.call('get_span', { trace_id: t.traceId, span_id: t.spanId });
    const answer = structured<Answer>(result);
    const api = await mcp.readApi<SpanDetail>(`/traces/${t.traceId}/spans/${t.spanId}`);
    expect(withoutEnvelope(answer)).toEqual(api.body);
    expect(answer.cuts).toEqual([]);
    expect(answer.contentIncluded).toBe(false);
    // Nothing recorded leaves: message text, tool arguments, status message, log body.
    const whole = JSON.stringify(result);
    for (const secret of [QUESTION, ANSWER, STATUS, LOG_BODY, 'Paris', 'images.example.com']) {
      expect(whole).not.toContain(secret);
    }
    // Their presence and size do.
    expect(answer.messages[0]?.parts[0]).toMatchObject({
      type: 'text',
      withheld: true,
      size: QUESTION.length,
    });
    expect(answer.span.statusMessageSize).toBe(STATUS.length);
    expect(answer.logs[0]).toMatchObject({ bodyWithheld: true });
  });

  it('answers the recorded content with include_content: true, as the read API does', async () => {
    const result = await mcp.call('get_span', {
      trace_id: t.traceId,
      span_id: t.spanId,
      include_content: true,
    });
    const answer = structured<Answer>(result);
    const api = await mcp.readApi<SpanDetail>(`/traces/${t.traceId}/spans/${t.spanId}?includeContent=true`);
    expect(withoutEnvelope(answer)).toEqual(api.body);
    const whole = JSON.stringify(result.structuredContent);
    for (const secret of [QUESTION, ANSWER, STATUS, LOG_BODY, 'Paris']) expect(whole).toContain(secret);
  });

  it('lists files with their state and remote references, never bytes or links', async () => {
    const result = await mcp.call('get_span', {
      trace_id: t.traceId,
      span_id: t.spanId,
      sections: ['files', 'remote_references'],
    });
    const answer = structured<Answer>(result);
    expect(answer.files).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          sha256: sha256Of(cat),
          contentType: 'image/png',
          state: 'stored',
          where: 'message',
        }),
        expect.objectContaining({
          sha256: sha256Of(pdf),
          state: 'not uploaded',
          where: 'event',
          name: 'report.pdf',
        }),
      ]),
    );
    expect(answer.remoteReferences).toEqual([
      expect.objectContaining({ kind: 'uri', link: true, withheld: true }),
    ]);
    // Only the lists asked for.
    expect(answer).not.toHaveProperty('messages');
    expect(answer).not.toHaveProperty('attributes');
    const whole = JSON.stringify(result);
    expect(whole).not.toContain(cat.toString('base64').slice(0, 40));
    expect(whole).not.toMatch(/\/api\/v1\/(blobs|files)\/|signature=|sig=/);
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    expect(text).toContain(fileUri(t.traceId, sha256Of(cat)));
  });

  it('keeps a span with a 50 MB attribute within the budget and reads the rest in windows', async () => {
    const result = await mcp.call('get_span', { trace_id: t.traceId, span_id: t.bigSpan });
    const answer = structured<Answer>(result);
    expect(resultCharacters(result)).toBeLessThanOrEqual(80_000);
    const index = answer.attributes.findIndex((a) => a.key === 'app.payload');
    expect(answer.attributes[index]).toMatchObject({ truncated: true, size: PAYLOAD.length });
    const shown = answer.attributes[index]?.value as string;
    expect(PAYLOAD.startsWith(shown)).toBe(true);
    const cut = answer.cuts.find((c) => c.at === `/attributes/${index}/value`);
    expect(cut).toMatchObject({
      kind: 'value',
      from: shown.length,
      characters: PAYLOAD.length - shown.length,
    });
    expect(cut?.next.tool).toBe('get_span');

    // The next window continues exactly where the value stopped.
    const window = await mcp.call(cut!.next.tool, cut!.next.arguments);
    const read = structured<{ window: { from: number; to: number; characters: number; text: string } }>(
      window,
    );
    expect(resultCharacters(window)).toBeLessThanOrEqual(80_000);
    expect(read.window.from).toBe(shown.length);
    expect(read.window.characters).toBe(PAYLOAD.length);
    expect(read.window.text).toBe(PAYLOAD.slice(shown.length, read.window.to));
    expect(read.cuts[0]).toMatchObject({ from: read.window.to, characters: PAYLOAD.length - read.window.to });

    // And the last window reaches the end, with nothing left out.
    const cursor = decodeCursor(read.cuts[0]!.next.arguments.cursor as string);
    if (!('recorded' in cursor)) throw new Error('the cut continues with a recorded-value cursor');
    const last = structured<{ window: { to: number; text: string } }>(
      await mcp.call('get_span', {
        ...read.cuts[0]!.next.arguments,
        cursor: encodeCursor({ recorded: cursor.recorded, from: PAYLOAD.length - 1_000 }),
      }),
    );
    expect(last.window.text).toBe(PAYLOAD.slice(-1_000));
    expect(last.cuts).toEqual([]);
  });

  it('stands in for a value too large for a lower budget, and reads it in windows', async () => {
    const result = await mcp.call('get_span', {
      trace_id: t.traceId,
      span_id: t.bigSpan,
      sections: ['attributes'],
      max_tokens: 2_000,
    });
    const answer = structured<Answer>(result);
    expect(resultCharacters(result)).toBeLessThanOrEqual(8_000);
    const standIn = answer.attributes.find(
      (a) => (a as unknown as { partial?: true }).partial === true,
    ) as unknown as {
      text: string;
      characters: number;
    };
    expect(standIn.text.length).toBeGreaterThan(500);
    const cut = answer.cuts.find((c) => c.kind === 'value');
    expect(cut?.from).toBe(standIn.text.length);
    const next = structured<{ window: { from: number; text: string } }>(
      await mcp.call('get_span', cut!.next.arguments),
    );
    expect(next.window.from).toBe(standIn.text.length);
    expect(next.size.characters).toBeLessThanOrEqual(8_000);
  });

  it('cuts a long list of attributes, and following the cuts reads them all, as the read API lists them', async () => {
    const first = await mcp.call('get_span', { trace_id: t.traceId, span_id: t.wideSpan, max_tokens: 5_000 });
    let answer = structured<Answer>(first);
    const attributes = [...answer.attributes];
    let cut = answer.cuts.find((c) => c.at === '/attributes');
    expect(cut).toMatchObject({ kind: 'list', from: attributes.length });
    let calls = 0;
    while (cut !== undefined) {
      const page = await mcp.call(cut.next.tool, cut.next.arguments);
      expect(resultCharacters(page)).toBeLessThanOrEqual(20_000);
      answer = structured<Answer>(page);
      attributes.push(...answer.attributes);
      cut = answer.cuts.find((c) => c.at === '/attributes');
      expect(++calls).toBeLessThan(50);
    }
    const api = await mcp.readApi<SpanDetail>(`/traces/${t.traceId}/spans/${t.wideSpan}`);
    expect(attributes).toEqual(api.body.attributes);
  });

  it('answers an unknown trace or span with an error saying so', async () => {
    expect(errorText(await mcp.call('get_span', { trace_id: newTraceId(), span_id: t.spanId }))).toBe(
      'No spans or logs of this trace are stored (yet).',
    );
    expect(errorText(await mcp.call('get_span', { trace_id: t.traceId, span_id: newSpanId() }))).toBe(
      'No span of this ID is stored in the trace.',
    );
  });

  it.each([
    [{ span_id: 'xyz' }, 'must be 16 lowercase hex characters at span_id'],
    [{ include_content: 'yes' }, 'include_content'],
    [{ sections: ['everything'] }, 'sections'],
    [{ includeContent: true }, 'includeContent'],
    [{ cursor: encodeCursor({ page: 'x' }) }, 'not a cursor of get_span'],
    [{ cursor: encodeCursor({ list: '/nothing', from: 0 }) }, 'cursor: this answer has no list'],
  ])('refuses bad arguments %j with a clear error, leaking nothing', async (args, message) => {
    const text = errorText(await mcp.call('get_span', { trace_id: t.traceId, span_id: t.spanId, ...args }));
    expect(text).toContain(message);
    for (const secret of [QUESTION, ANSWER, mcp.fx.server.keys.mcp]) expect(text).not.toContain(secret);
  });
});

describe('get_span: a span with more log records than a page of its detail holds', () => {
  const chatty = { traceId: '', spanId: '' };
  beforeAll(async () => {
    Object.assign(chatty, await ingestSpanWithLogs(mcp.fx.server));
  });
  type Log = SpanDetail['logs'][number];
  type StandIn = { partial: true; characters: number; text: string };

  /** Reads a value cut whole: `start` (what the answer showed of it), then window after window. */
  async function readValue(cut: AnswerCut, start: string, budget: number): Promise<string> {
    let text = start;
    let next: AnswerCut | undefined = cut;
    while (next !== undefined) {
      const result = await mcp.call(next.next.tool, next.next.arguments);
      expect(resultCharacters(result)).toBeLessThanOrEqual(budget);
      const read = structured<{ window: { from: number; text: string } }>(result);
      expect(read.window.from).toBe(text.length);
      text += read.window.text;
      next = read.cuts.find((c) => c.kind === 'value');
    }
    return text;
  }

  /**
   * Follows the cuts of the log list from a first call, as an agent would: every record in order
   * (an item stood in for is read whole through its value cut), and each answer's cuts.
   */
  async function followLogs(args: Record<string, unknown>, budget: number) {
    const logs: Log[] = [];
    const cuts: AnswerCut[] = [];
    let result = await mcp.call('get_span', args);
    for (let calls = 1; ; calls++) {
      expect(resultCharacters(result)).toBeLessThanOrEqual(budget);
      const answer = structured<Answer>(result);
      cuts.push(...answer.cuts);
      const start = logs.length;
      for (const [i, item] of answer.logs.entries()) {
        const standIn = item as unknown as StandIn;
        if (standIn.partial !== true) {
          logs.push(item);
          continue;
        }
        const cut = answer.cuts.find((c) => c.kind === 'value' && c.at === `/logs/${start + i}`);
        expect(cut, `the cut of stand-in /logs/${start + i}`).toBeDefined();
        logs.push(JSON.parse(await readValue(cut!, standIn.text, budget)) as Log);
      }
      const cut = answer.cuts.find((c) => c.kind === 'list' && c.at === '/logs');
      if (cut === undefined) return { logs, cuts, calls };
      // The cut names the record it continues from by its index in the span's whole list.
      expect(cut).toMatchObject({ from: logs.length, items: SPAN_LOG_COUNT - logs.length });
      expect(calls).toBeLessThan(60);
      result = await mcp.call(cut.next.tool, cut.next.arguments);
    }
  }

  const expectedBodies = Array.from({ length: SPAN_LOG_COUNT }, (_, i) => logBody(i).slice(0, 64));

  it('reaches record 449 through its cuts, every record once and in time order', async () => {
    const first = structured<Answer>(
      await mcp.call('get_span', { trace_id: chatty.traceId, span_id: chatty.spanId }),
    );
    // The first answer's cut of the log list counts every record past what it shows, not only this page's.
    const cut = first.cuts.find((c) => c.kind === 'list' && c.at === '/logs');
    expect(cut).toMatchObject({ from: first.logs.length, items: SPAN_LOG_COUNT - first.logs.length });
    expect(cut?.next).toMatchObject({ tool: 'get_span', arguments: { trace_id: chatty.traceId } });

    const { logs } = await followLogs(
      { trace_id: chatty.traceId, span_id: chatty.spanId, include_content: true, sections: ['logs'] },
      80_000,
    );
    expect(logs.map((log) => String(log.body).slice(0, 64))).toEqual(expectedBodies);
    expect(logs.at(-1)?.attributes).toEqual([expect.objectContaining({ key: 'app.record', value: '449' })]);
  });

  it('reaches every record under a small budget too, a record too large for an answer read in windows', async () => {
    const { logs } = await followLogs(
      {
        trace_id: chatty.traceId,
        span_id: chatty.spanId,
        include_content: true,
        sections: ['logs'],
        max_tokens: 5_000,
      },
      20_000,
    );
    expect(logs.map((log) => String(log.body).slice(0, 64))).toEqual(expectedBodies);
  });

  it('reads the whole body of a record on a later page by its index in the whole list', async () => {
    const { cuts } = await followLogs(
      { trace_id: chatty.traceId, span_id: chatty.spanId, include_content: true, sections: ['logs'] },
      80_000,
    );
    const cut = cuts.find((c) => c.at === `/logs/${LONG_BODY_AT}/body`);
    expect(cut).toMatchObject({ kind: 'value', from: 64 * 1024 });
    expect(decodeCursor(cut!.next.arguments.cursor as string)).toMatchObject({
      recorded: { record: 'log', index: LONG_BODY_AT },
    });
    const whole = logBody(LONG_BODY_AT);
    expect(await readValue(cut!, whole.slice(0, 64 * 1024), 80_000)).toBe(whole);
  });

  it('refuses a cursor past the last record', async () => {
    const text = errorText(
      await mcp.call('get_span', {
        trace_id: chatty.traceId,
        span_id: chatty.spanId,
        cursor: encodeCursor({ list: '/logs', from: SPAN_LOG_COUNT + 1 }),
      }),
    );
    expect(text).toContain('cursor: past the end of the list');
  });
});

describe(`the file resource ${'svc://traces/{traceId}/files/{sha256}'}`, () => {
  it('is listed as a resource template', async () => {
    const { resourceTemplates } = await mcp.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: 'svc://traces/{traceId}/files/{sha256}', name: 'trace-file' }),
    ]);
  });

  it('returns a stored image as an image block of its bytes', async () => {
    const uri = fileUri(t.traceId, sha256Of(cat));
    const { contents } = await mcp.client.readResource({ uri });
    expect(contents).toEqual([{ uri, mimeType: 'image/png', blob: cat.toString('base64') }]);
  });

  it('returns the metadata of a file models cannot take, or whose bytes are not stored', async () => {
    for (const [bytes, state, reason] of [
      [notes, 'stored', 'not an image or audio type'],
      [pdf, 'not uploaded', 'not uploaded'],
    ] as const) {
      const uri = fileUri(t.traceId, sha256Of(bytes));
      const { contents } = await mcp.client.readResource({ uri });
      expect(contents).toHaveLength(1);
      expect(contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
      const metadata = JSON.parse((contents[0] as { text: string }).text);
      expect(metadata).toMatchObject({
        sha256: sha256Of(bytes),
        state,
        bytesSent: false,
        size: bytes.length,
      });
      expect(metadata.reason).toContain(reason);
      expect(metadata.listedBy).toEqual([expect.objectContaining({ spanId: t.spanId })]);
    }
  });

  it('answers a file the trace does not have with "resource not found"', async () => {
    await expect(mcp.client.readResource({ uri: fileUri(t.traceId, 'f'.repeat(64)) })).rejects.toMatchObject({
      code: -32002,
    });
    await expect(mcp.client.readResource({ uri: fileUri('bad', 'f'.repeat(64)) })).rejects.toMatchObject({
      code: -32002,
    });
  });
});

describe('file bytes in recorded values', () => {
  it('never answer base64: data: URLs and base64 runs become a note with the SHA-256 of their bytes', async () => {
    const dot = readFileSync(new URL('../../../../../fixtures/media/dot.png', import.meta.url));
    const traceId = newTraceId();
    const spanId = newSpanId();
    const content = [
      { type: 'image_url', image_url: { url: `data:image/png;base64,${dot.toString('base64')}` } },
    ];
    const anthropic = [
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: cat.toString('base64') } },
    ];
    await ingest(
      mcp.fx.server,
      'traces',
      tracesRequest([
        jsonSpan(traceId, {
          spanId,
          attributes: [
            str('gen_ai.input.messages', JSON.stringify([{ role: 'user', content }])),
            str('custom.thing', `data:image/png;base64,${dot.toString('base64')}`),
            str('custom.raw', JSON.stringify(anthropic)),
          ],
        }),
      ]),
    );
    await ingest(
      mcp.fx.server,
      'logs',
      logsRequest([
        {
          traceId,
          spanId,
          timeUnixNano: '1763740800600000000',
          eventName: 'gen_ai.user.message',
          body: { kvlistValue: { values: [str('content', JSON.stringify(content))] } },
        },
      ]),
    );
    const result = await mcp.call('get_span', { trace_id: traceId, span_id: spanId, include_content: true });
    const whole = JSON.stringify(result);
    for (const bytes of [dot, cat]) expect(whole).not.toContain(bytes.toString('base64').slice(0, 40));
    expect(whole).toContain(`[file bytes withheld: image/png, ${dot.length} bytes, sha256 ${sha256Of(dot)}]`);
    expect(whole).toContain(`[file bytes withheld: ${cat.length} bytes, sha256 ${sha256Of(cat)}]`);
    const answer = structured<Answer>(result);
    expect(answer.files).toEqual(
      expect.arrayContaining([expect.objectContaining({ sha256: sha256Of(dot), form: 'inline' })]),
    );
    // Read whole as a recorded value, the attribute is rewritten the same way.
    const recorded = structured<{ window: { text: string } }>(
      await mcp.call('get_span', {
        trace_id: traceId,
        span_id: spanId,
        include_content: true,
        cursor: encodeCursor({ recorded: { record: 'span', attribute: 'custom.thing' }, from: 0 }),
      }),
    );
    expect(recorded.window.text).toBe(
      `data:image/png;base64,[file bytes withheld: image/png, ${dot.length} bytes, sha256 ${sha256Of(dot)}]`,
    );
    // Not mistaken for a file: long numbers and repeated letters stay as they are (see the 50 MB test).
    expect(withoutFileBytesInText('0123456789'.repeat(200))).toBe('0123456789'.repeat(200));
  });
});
