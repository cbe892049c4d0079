import { context, logs, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { LoggerProvider } from '@opentelemetry/sdk-logs';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { type RunningServer, startServer } from '@svc-run/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SvcOptions } from '../options/svc-options.js';
import { createSvc, type SvcClient } from './svc-client.js';

let server: RunningServer;
const clients: SvcClient[] = [];
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.shutdown()));
  await server.close();
});

function client(overrides: Partial<SvcOptions> = {}): SvcClient {
  const svc = createSvc({
    apiKey: server.keys.tracing,
    baseUrl: server.origin,
    serviceName: 'e2e-app',
    captureContent: true,
    // The longest request timeout: a loaded machine only makes a test slower, never red.
    timeoutMillis: 60_000,
    ...overrides,
  });
  clients.push(svc);
  return svc;
}

function attributes(spanName: string, traceId: string): Record<string, unknown> {
  const span = server.traceStore.listSpans(traceId).find((s) => s.name === spanName);
  expect(span, spanName).toBeDefined();
  return Object.fromEntries(span!.attributes.map((a) => [a.key, Object.values(a.value)[0]]));
}

describe('SvcClient against the reference server', () => {
  it('records nested spans with inherited session and user, input and output, and verifies them', async () => {
    const svc = client();
    const ids = await svc.withSpan(
      'chat-turn',
      async (root) => {
        root.setOutput({ answer: 'sunny' });
        const child = await svc.withSpan('retrieve', async (span) => ({
          traceId: span.traceId,
          spanId: span.spanId,
        }));
        return {
          traceId: root.traceId,
          rootId: root.spanId,
          childId: child.spanId,
          childTrace: child.traceId,
        };
      },
      { input: { question: 'weather?' }, sessionId: 'session-1', userId: 'user-7' },
    );
    expect(ids.childTrace).toBe(ids.traceId);
    const report = await svc.flush();
    expect(report).toMatchObject({ acceptedSpans: 2, pendingSpans: 0, failedSpans: 0 });
    const verification = await svc.verifyTrace(ids.traceId, {
      expectedSpanIds: [ids.rootId, ids.childId],
      requiredFields: ['input', 'output', 'session', 'user'],
      timeoutMillis: 60_000,
    });
    expect(verification.verified).toBe(true);
    const stored = server.traceStore.listSpans(ids.traceId);
    expect(stored.find((s) => s.spanId === ids.childId)?.parentSpanId).toBe(ids.rootId);
    expect(attributes('retrieve', ids.traceId)).toMatchObject({
      'gen_ai.conversation.id': 'session-1',
      'user.id': 'user-7',
    });
    expect(attributes('chat-turn', ids.traceId)).toMatchObject({
      'input.value': '{"question":"weather?"}',
      'output.value': '{"answer":"sunny"}',
      'input.mime_type': 'application/json',
    });
  });

  it('records present values null, false, 0 and "" and omits undefined', async () => {
    const svc = client();
    const traceId = await svc.withSpan(
      'values',
      (span) => {
        span.setOutput(0);
        return span.traceId;
      },
      { input: null },
    );
    const other = await svc.withSpan('omitted', (span) => span.traceId, { input: undefined });
    await svc.flush();
    expect(attributes('values', traceId)).toMatchObject({ 'input.value': 'null', 'output.value': '0' });
    expect(attributes('omitted', other)).not.toHaveProperty('input.value');
  });

  it('does not record content over 256 KiB, raises a warning issue, and runs the work unchanged', async () => {
    const svc = client();
    const big = 'x'.repeat(300 * 1024);
    const traceId = await svc.withSpan(
      'large',
      (span) => {
        span.setOutput({ ok: true });
        return span.traceId;
      },
      { input: big },
    );
    const report = await svc.flush();
    expect(report.acceptedSpans).toBe(1);
    const recorded = attributes('large', traceId);
    expect(recorded).not.toHaveProperty('input.value');
    expect(recorded).toMatchObject({ 'output.value': '{"ok":true}' });
    expect(svc.transport.getIssues()).toEqual([
      expect.objectContaining({
        kind: 'warning',
        signal: 'traces',
        message: 'input was not recorded: its JSON is over 256 KiB',
      }),
    ]);
  });

  it('records no content with capture off, but keeps structure, session and error type', async () => {
    const svc = client({ captureContent: false });
    let traceId = '';
    await expect(
      svc.withSpan(
        'private',
        async (span) => {
          traceId = span.traceId;
          span.setOutput('secret output');
          throw new TypeError('secret message');
        },
        { input: 'secret input', sessionId: 's-2' },
      ),
    ).rejects.toThrow('secret message');
    await svc.flush();
    const [span] = server.traceStore.listSpans(traceId);
    const text = JSON.stringify(span);
    expect(text).not.toContain('secret');
    expect(span?.statusCode).toBe(2);
    expect(attributes('private', traceId)).toMatchObject({
      'error.type': 'TypeError',
      'gen_ai.conversation.id': 's-2',
    });
  });

  it('records errors with message and stack when capture is on, rethrowing the same error', async () => {
    const svc = client();
    const error = new RangeError('too far');
    let traceId = '';
    const caught = await svc
      .withSpan('fails', async () => {
        traceId = trace.getSpan(svc.getContext())!.spanContext().traceId;
        throw error;
      })
      .catch((e: unknown) => e);
    expect(caught).toBe(error);
    await svc.flush();
    const [span] = server.traceStore.listSpans(traceId);
    expect(span?.statusCode).toBe(SpanStatusCode.ERROR);
    expect(span?.statusMessage).toBe('too far');
    const exception = span?.events.find((e) => e.name === 'exception');
    expect(exception?.attributes.map((a) => a.key)).toEqual(
      expect.arrayContaining(['exception.type', 'exception.message', 'exception.stacktrace']),
    );
  });

  it('records tool calls as execute_tool spans with arguments, result and MCP server name', async () => {
    const svc = client();
    const { traceId, result } = await svc.withSpan('agent', async (root) => ({
      traceId: root.traceId,
      result: await svc.tool('get_weather', { city: 'Paris' }, async () => ({ celsius: 21 }), {
        mcp: { getServerVersion: () => ({ name: 'weather-server', version: '1.0.0' }) },
      }),
    }));
    // The spec: "an `undefined` result omits result content" (the arguments are still recorded).
    const notified = await svc.withSpan('notify-agent', async (root) => ({
      traceId: root.traceId,
      result: await svc.tool('notify', { to: 'a' }, () => undefined),
    }));
    expect(notified.result).toBeUndefined();
    expect(result).toEqual({ celsius: 21 });
    await svc.flush();
    const notify = attributes('execute_tool notify', notified.traceId);
    expect(notify).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'notify',
      'gen_ai.tool.call.arguments': '{"to":"a"}',
    });
    expect(Object.keys(notify)).not.toContain('gen_ai.tool.call.result');
    expect(attributes('execute_tool get_weather', traceId)).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.tool.call.arguments': '{"city":"Paris"}',
      'gen_ai.tool.call.result': '{"celsius":21}',
      'mcp.server.name': 'weather-server',
    });
    const verification = await svc.verifyTrace(traceId, {
      requiredFields: ['tool', 'input', 'output'],
      timeoutMillis: 60_000,
    });
    expect(verification.verified).toBe(true);
  });

  it('emits an inference-details log correlated with the active span; nothing with capture off', async () => {
    const svc = client();
    const ids = await svc.withSpan('model-call', (span) => {
      svc.recordMessages({
        input: [{ role: 'user', content: 'hi' }],
        output: [{ role: 'assistant', content: 'hello' }],
      });
      return { traceId: span.traceId, spanId: span.spanId };
    });
    await svc.flush();
    const [log] = server.traceStore.listLogs(ids.traceId);
    expect(log).toMatchObject({
      traceId: ids.traceId,
      spanId: ids.spanId,
      eventName: 'gen_ai.client.inference.operation.details',
    });
    expect(log?.attributes.map((a) => a.key).sort()).toEqual([
      'gen_ai.input.messages',
      'gen_ai.output.messages',
    ]);

    const quiet = client({ captureContent: false });
    const quietTrace = await quiet.withSpan('model-call', (span) => {
      quiet.recordMessages({ input: 'secret' });
      return span.traceId;
    });
    const report = await quiet.flush();
    expect(report.acceptedLogs).toBe(0);
    expect(server.traceStore.listLogs(quietTrace)).toEqual([]);
  });

  it('never touches the global tracer provider: an application provider and the client each see only their own spans', async () => {
    const appExporter = new InMemorySpanExporter();
    const appProvider = new TracerProvider({
      spanProcessors: [new SimpleSpanProcessor({ exporter: appExporter })],
    });
    expect(trace.setGlobalTracerProvider(appProvider)).toBe(true);
    try {
      const svc = client();
      const appTracer = trace.getTracer('app');
      const appSpan = appTracer.startSpan('app-work');
      appSpan.end();
      const traceId = await svc.withSpan('svc-work', (span) => span.traceId);
      await svc.flush();
      expect(appExporter.getFinishedSpans().map((s) => s.name)).toEqual(['app-work']);
      expect(server.traceStore.listSpans(traceId).map((s) => s.name)).toEqual(['svc-work']);
      expect(server.traceStore.getTraceSummary(appSpan.spanContext().traceId)).toBeUndefined();
      // Creating clients registered no global context manager nor logger provider: the
      // application can still register its own.
      expect(context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())).toBe(true);
      expect(logs.setGlobalLoggerProvider(new LoggerProvider())).toBe(true);
    } finally {
      trace.disable();
      context.disable();
      logs.disable();
    }
  });

  it("parents on the application's active OpenTelemetry context when there is no local one", async () => {
    const svc = client();
    const parent = svc.tracer.startSpan('app-parent');
    const ctx = trace.setSpan(context.active(), parent);
    const child = await svc.withSpan('child', (span) => span.spanId, { parentContext: ctx });
    parent.end();
    await svc.flush();
    const [stored] = server.traceStore
      .listSpans(parent.spanContext().traceId)
      .filter((s) => s.spanId === child);
    expect(stored?.parentSpanId).toBe(parent.spanContext().spanId);
  });

  it('records model calls in the GenAI form, usage only as given, messages only with capture on', async () => {
    const svc = client();
    const input = [{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }];
    const output = [
      { role: 'assistant', parts: [{ type: 'text', content: 'hello' }], finish_reason: 'stop' },
    ];
    const { traceId, reply } = await svc.model(
      { provider: 'openai', model: 'gpt-4o-mini', input, attributes: { 'gen_ai.request.temperature': 0.2 } },
      async (call) => {
        call.setResponse({
          model: 'gpt-4o-mini-2024-07-18',
          id: 'resp_1',
          finishReasons: ['stop'],
          output,
          usage: { inputTokens: 9 },
        });
        return { traceId: call.traceId, reply: 'hello' };
      },
    );
    expect(reply).toBe('hello');
    await svc.flush();
    const recorded = attributes('chat gpt-4o-mini', traceId);
    expect(recorded).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
      'gen_ai.response.id': 'resp_1',
      'gen_ai.usage.input_tokens': '9',
      'gen_ai.input.messages': JSON.stringify(input),
      'gen_ai.output.messages': JSON.stringify(output),
      'gen_ai.request.temperature': 0.2,
    });
    expect(recorded).not.toHaveProperty('gen_ai.usage.output_tokens');
    expect(server.traceStore.listSpans(traceId)[0]?.kind).toBe(3);
    expect(
      (
        await svc.verifyTrace(traceId, {
          requiredFields: ['model', 'usage', 'input', 'output'],
          timeoutMillis: 60_000,
        })
      ).verified,
    ).toBe(true);

    const quiet = client({ captureContent: false });
    const quietTrace = await quiet.model({ provider: 'openai', model: 'm', input }, (call) => {
      call.setResponse({ output, usage: { inputTokens: 1, outputTokens: 2 } });
      return call.traceId;
    });
    await quiet.flush();
    const quietAttributes = attributes('chat m', quietTrace);
    expect(quietAttributes).not.toHaveProperty('gen_ai.input.messages');
    expect(quietAttributes).not.toHaveProperty('gen_ai.output.messages');
    expect(quietAttributes).toMatchObject({ 'gen_ai.usage.output_tokens': '2' });
    expect(() => svc.model({ provider: 'openai', model: ' ' }, () => 1)).toThrow(
      'model must be a nonblank string; got " "',
    );
  });

  it('checks the connection without sending telemetry', async () => {
    const svc = client();
    expect(await svc.checkConnection()).toEqual(server.project);
    expect(svc.transport.getReport()).toMatchObject({ acceptedSpans: 0, acceptedLogs: 0 });
  });

  it('validates withSpan options with messages that name the option', () => {
    const svc = client();
    expect(() => svc.withSpan('x', () => 1, { sessionId: '' })).toThrow(
      'sessionId must be 1 to 4096 well-formed characters; got a string of 0 characters',
    );
    expect(() => svc.withSpan('x', () => 1, { userId: 'a'.repeat(4097) })).toThrow(
      'userId must be 1 to 4096',
    );
    expect(() => svc.withSpan(' ', () => 1)).toThrow('withSpan name must be a nonblank string; got " "');
  });
});
