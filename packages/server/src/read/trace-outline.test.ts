import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { blobsAttribute, call, entryOf, fileEvent, ingest } from '../test-support/media-fixtures.js';
import {
  int,
  jsonSpan,
  logsRequest,
  newSpanId,
  newTraceId,
  str,
  tracesRequest,
} from '../test-support/otlp-fixtures.js';
import { useServer } from '../test-support/server-fixture.js';

const fx = useServer();

const T0 = 1_763_740_800_000_000_000n;
const at = (millis: number) => String(T0 + BigInt(millis) * 1_000_000n);

async function outline(traceId: string, query = '', key = fx.server.keys.read) {
  const res = await call(fx.server, `/api/v1/traces/${traceId}${query}`, { key });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & {
      spans: Record<string, unknown>[];
      summary: Record<string, unknown>;
      nextCursor: string | null;
    },
  };
}

/** An agent run: a root, an AI SDK wrapper with two model calls below it, a failing tool, a log. */
async function agentTrace() {
  const traceId = newTraceId();
  const [root, wrapper, call1, call2, tool, orphan] = Array.from({ length: 6 }, () => newSpanId()) as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const image = randomBytes(100);
  await ingest(
    fx.server,
    'traces',
    tracesRequest([
      jsonSpan(traceId, {
        spanId: root,
        name: 'agent run',
        kind: 1,
        startTimeUnixNano: at(0),
        endTimeUnixNano: at(2_500),
        attributes: [str('gen_ai.conversation.id', 'session-7'), str('user.id', 'ada')],
      }),
      jsonSpan(traceId, {
        spanId: wrapper,
        parentSpanId: root,
        name: 'ai.generateText',
        kind: 1,
        startTimeUnixNano: at(100),
        endTimeUnixNano: at(2_000),
        // The AI SDK's wrapper repeats its calls' totals: never counted.
        attributes: [
          str('ai.model.id', 'gpt-4o'),
          int('ai.usage.inputTokens', 300),
          int('ai.usage.outputTokens', 30),
        ],
      }),
      jsonSpan(traceId, {
        spanId: call1,
        parentSpanId: wrapper,
        name: 'ai.generateText.doGenerate',
        startTimeUnixNano: at(150),
        endTimeUnixNano: at(900),
        attributes: [
          str('gen_ai.request.model', 'gpt-4o'),
          str('gen_ai.response.model', 'gpt-4o-2024-08-06'),
          int('gen_ai.usage.input_tokens', 100),
          int('gen_ai.usage.output_tokens', 10),
          blobsAttribute([entryOf(image, { key: 'gen_ai.input.messages#/0/parts/1' })]),
        ],
      }),
      jsonSpan(traceId, {
        spanId: call2,
        parentSpanId: wrapper,
        name: 'ChatCompletion',
        startTimeUnixNano: at(1_000),
        endTimeUnixNano: at(1_900),
        // OpenInference's names.
        attributes: [
          str('llm.model_name', 'claude-sonnet-4-5'),
          int('llm.token_count.prompt', 200),
          int('llm.token_count.completion', 20),
        ],
      }),
      jsonSpan(traceId, {
        spanId: tool,
        parentSpanId: root,
        name: 'execute_tool weather',
        startTimeUnixNano: at(2_100),
        endTimeUnixNano: at(2_050), // ends before it starts: duration 0
        status: { code: 2, message: 'boom' },
        events: [
          {
            name: 'exception',
            timeUnixNano: at(2_040),
            attributes: [str('exception.type', 'TimeoutError'), str('exception.message', 'slow')],
          },
          fileEvent(randomBytes(10), { role: 'output' }),
        ],
      }),
      jsonSpan(traceId, {
        spanId: orphan,
        parentSpanId: newSpanId(), // its parent never arrived
        name: 'late child',
        startTimeUnixNano: at(2_200),
        endTimeUnixNano: at(2_300),
        attributes: [str('error.type', 'ValueError')],
      }),
    ]),
  );
  await ingest(
    fx.server,
    'logs',
    logsRequest([
      { traceId, spanId: call1, timeUnixNano: at(500), body: { stringValue: 'inference details' } },
      { traceId, spanId: call1, timeUnixNano: at(600), body: { stringValue: 'more' } },
    ]),
  );
  return { traceId, root, wrapper, call1, call2, tool, orphan };
}

describe('traceOutline (GET /api/v1/traces/{traceId})', () => {
  it('lists every span without attribute values, with model, tokens, errors and counts', async () => {
    const t = await agentTrace();
    const { status, body } = await outline(t.traceId);
    expect(status).toBe(200);
    expect(body.spans.map((s) => s.spanId)).toEqual([t.root, t.wrapper, t.call1, t.call2, t.tool, t.orphan]);
    const byId = Object.fromEntries(body.spans.map((s) => [s.spanId, s]));
    expect(byId[t.root]).toEqual({
      spanId: t.root,
      parentSpanId: null,
      name: 'agent run',
      kind: 'INTERNAL',
      startTimeUnixNano: at(0),
      endTimeUnixNano: at(2_500),
      startTime: '2025-11-21T16:00:00.000Z',
      durationMs: 2_500,
      status: 'UNSET',
      error: false,
      eventCount: 0,
      logCount: 0,
      fileCount: 0,
    });
    expect(byId[t.call1]).toMatchObject({
      parentSpanId: t.wrapper,
      kind: 'CLIENT',
      model: 'gpt-4o-2024-08-06',
      inputTokens: 100,
      outputTokens: 10,
      logCount: 2,
      fileCount: 1,
      durationMs: 750,
    });
    expect(byId[t.call2]).toMatchObject({ model: 'claude-sonnet-4-5', inputTokens: 200, outputTokens: 20 });
    expect(byId[t.wrapper]).toMatchObject({ model: 'gpt-4o' });
    expect(byId[t.wrapper]).not.toHaveProperty('inputTokens');
    expect(byId[t.tool]).toMatchObject({
      status: 'ERROR',
      error: true,
      errorType: 'TimeoutError',
      eventCount: 2,
      fileCount: 1,
      durationMs: 0,
    });
    expect(byId[t.orphan]).toMatchObject({
      parentSpanId: null,
      error: true,
      errorType: 'ValueError',
      status: 'UNSET',
    });
    // No attribute values in the spans (the summary names sessions and users).
    expect(JSON.stringify(body.spans)).not.toContain('session-7');
    expect(JSON.stringify(body.spans)).not.toContain('attributes');
  });

  it('summarizes the trace: duration, counts, tokens per model, sessions, users, services', async () => {
    const t = await agentTrace();
    const { body } = await outline(t.traceId);
    expect(body.summary).toEqual({
      traceId: t.traceId,
      rootName: 'agent run',
      startTime: '2025-11-21T16:00:00.000Z',
      startTimeUnixNano: at(0),
      endTimeUnixNano: at(2_500),
      durationMs: 2_500,
      spanCount: 6,
      errorCount: 2,
      logCount: 2,
      inputTokens: 300,
      outputTokens: 30,
      models: [
        { model: 'gpt-4o-2024-08-06', inputTokens: 100, outputTokens: 10, calls: 1 },
        { model: 'claude-sonnet-4-5', inputTokens: 200, outputTokens: 20, calls: 1 },
      ],
      sessions: ['session-7'],
      users: ['ada'],
      services: ['test-app'],
    });
  });

  it('counts a span re-sent with the same ID once, and shows what it was re-sent with', async () => {
    const traceId = newTraceId();
    const spanId = newSpanId();
    const model = (tokens: number) =>
      jsonSpan(traceId, {
        spanId,
        attributes: [str('gen_ai.request.model', 'gpt-4o'), int('gen_ai.usage.input_tokens', tokens)],
      });
    await ingest(fx.server, 'traces', tracesRequest([model(100)]));
    expect((await outline(traceId)).body.summary).toMatchObject({ spanCount: 1, inputTokens: 100 });
    // An exporter's retry after a lost answer sends the same span again.
    await ingest(fx.server, 'traces', tracesRequest([model(100)]));
    await ingest(fx.server, 'traces', tracesRequest([model(250)]));
    const { body } = await outline(traceId);
    expect(body.summary).toMatchObject({ spanCount: 1, inputTokens: 250 });
    expect(body.spans).toEqual([expect.objectContaining({ spanId, inputTokens: 250 })]);
  });

  it('pages the spans with a cursor, the summary always over all of them', async () => {
    const t = await agentTrace();
    const first = await outline(t.traceId, '?limit=4');
    expect(first.body.spans).toHaveLength(4);
    expect(first.body.nextCursor).not.toBeNull();
    expect(first.body.summary.spanCount).toBe(6);
    const second = await outline(t.traceId, `?limit=4&after=${first.body.nextCursor}`);
    expect(second.body.spans.map((s) => s.spanId)).toEqual([t.tool, t.orphan]);
    expect(second.body.nextCursor).toBeNull();
  });

  it('refuses an unknown trace, a bad ID or limit, and keys that do not browse traces', async () => {
    expect((await outline(newTraceId())).status).toBe(404);
    expect((await outline('ABC')).status).toBe(400);
    const t = await agentTrace();
    expect((await outline(t.traceId, '?limit=0')).status).toBe(400);
    expect((await outline(t.traceId, '?limit=10001')).status).toBe(400);
    expect((await outline(t.traceId, '', fx.server.keys.readWrite)).status).toBe(200);
    // Spec "Authentication" 6: the tracing key gives no trace browsing; setup and machine keys read nothing.
    for (const key of [fx.server.keys.tracing, fx.server.keys.setup, fx.server.keys.machine]) {
      expect((await outline(t.traceId, '', key)).status).toBe(403);
    }
    expect((await outline(t.traceId, '', 'svc_read_not-a-key')).status).toBe(401);
  });
});
