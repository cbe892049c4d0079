import type { AnyValue, Attributes, Link } from '@opentelemetry/api';
import { SeverityNumber, SpanStatusCode } from '@opentelemetry/api';
import {
  JsonLogsSerializer,
  JsonTraceSerializer,
  ProtobufLogsSerializer,
  ProtobufTraceSerializer,
} from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableLogRecord } from '@opentelemetry/sdk-logs';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { isContentAttribute } from '@svc-run/conventions';
import { describe, expect, it } from 'vitest';
import type { Redactor } from '../options/svc-options.js';
import { aiSdkFixture } from './__fixtures__/ai-sdk.js';
import type { ConventionFixture } from './__fixtures__/convention-fixture.js';
import { genAiSemconvFixture } from './__fixtures__/genai-semconv.js';
import { langfuseFixture } from './__fixtures__/langfuse.js';
import { openInferenceFixture } from './__fixtures__/openinference.js';
import { openLlmetryFixture } from './__fixtures__/openllmetry.js';
import { pydanticAiFixture } from './__fixtures__/pydantic-ai.js';
import { createContentPolicy } from './content-policy.js';
import { RecordRejectedError } from './record-rejected-error.js';

const fixtures = [
  genAiSemconvFixture,
  aiSdkFixture,
  openInferenceFixture,
  openLlmetryFixture,
  langfuseFixture,
  pydanticAiFixture,
];

/** Text that appears only in content (status message, exception message, log body). */
const SECRET = 'jane.secret@example.com';

interface RecordSpanOptions {
  attributes: Attributes;
  name?: string;
  exception?: boolean;
  eventAttributes?: Attributes;
  linkAttributes?: Attributes;
  statusMessage?: string;
  resource?: Attributes;
  count?: number;
}

/** Records spans with a real TracerProvider (not registered globally) and an in-memory exporter. */
async function recordSpans(options: RecordSpanOptions): Promise<ReadableSpan[]> {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({
    resource: resourceFromAttributes(options.resource ?? { 'service.name': 'content-policy-test' }),
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  });
  const tracer = provider.getTracer('content-policy-test', '1.0.0');
  const linked = tracer.startSpan('linked');
  linked.end();
  await provider.forceFlush();
  exporter.reset();
  const links: Link[] = [{ context: linked.spanContext(), attributes: options.linkAttributes ?? {} }];
  for (let i = 0; i < (options.count ?? 1); i++) {
    const span = tracer.startSpan(options.name ?? 'work', { attributes: options.attributes, links });
    span.addEvent('gen_ai.content.prompt', options.eventAttributes ?? {});
    if (options.exception === true) span.recordException(new Error(`failed for ${SECRET}`));
    span.setStatus({ code: SpanStatusCode.ERROR, message: options.statusMessage ?? `failed for ${SECRET}` });
    span.end();
  }
  await provider.forceFlush();
  const spans = exporter.getFinishedSpans();
  await provider.shutdown();
  return spans;
}

async function recordSpan(options: RecordSpanOptions): Promise<ReadableSpan> {
  const [span] = await recordSpans(options);
  if (span === undefined) throw new Error('no span recorded');
  return span;
}

async function recordFixtureSpan(fixture: ConventionFixture): Promise<ReadableSpan> {
  return recordSpan({
    name: fixture.spanName,
    attributes: fixture.attributes,
    exception: true,
    eventAttributes: { 'gen_ai.prompt': `[{"role":"user","content":"${SECRET}"}]`, 'event.seq': 1 },
    linkAttributes: { 'gen_ai.input.messages': `[{"content":"${SECRET}"}]`, 'link.kind': 'follows' },
  });
}

interface EmitLogOptions {
  body?: AnyValue;
  attributes?: Attributes;
  exception?: boolean;
}

/** Emits one log record with a real LoggerProvider and an in-memory exporter. */
async function emitLog(options: EmitLogOptions): Promise<ReadableLogRecord> {
  const exporter = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': 'content-policy-test' }),
    processors: [new SimpleLogRecordProcessor({ exporter })],
  });
  provider.getLogger('content-policy-test').emit({
    eventName: 'gen_ai.client.inference.operation.details',
    severityNumber: SeverityNumber.INFO,
    body: options.body,
    attributes: options.attributes ?? {},
    ...(options.exception === true ? { exception: new Error(`failed for ${SECRET}`) } : {}),
  });
  await provider.forceFlush();
  const [record] = exporter.getFinishedLogRecords();
  await provider.shutdown();
  if (record === undefined) throw new Error('no log record emitted');
  return record;
}

/** A deep copy of the data a policy could touch, to check the input is left as it was. */
function snapshotSpan(span: ReadableSpan): unknown {
  return structuredClone({
    attributes: span.attributes,
    events: span.events,
    links: span.links,
    status: span.status,
    resource: span.resource.attributes,
    name: span.name,
  });
}

function snapshotLog(record: ReadableLogRecord): unknown {
  return structuredClone({
    attributes: record.attributes,
    body: record.body,
    resource: record.resource.attributes,
  });
}

interface OtlpKeyValue {
  key: string;
}

interface OtlpJsonSpan {
  attributes: OtlpKeyValue[];
  events: { name: string; attributes: OtlpKeyValue[] }[];
  links: { attributes: OtlpKeyValue[] }[];
  status: { code: number; message?: string };
}

function serializeSpans(spans: ReadableSpan[]): {
  text: string;
  resourceCount: number;
  spans: OtlpJsonSpan[];
} {
  const bytes = JsonTraceSerializer.serializeRequest(spans);
  if (bytes === undefined) throw new Error('JSON serialization failed');
  const text = new TextDecoder().decode(bytes);
  const request = JSON.parse(text) as { resourceSpans: { scopeSpans: { spans: OtlpJsonSpan[] }[] }[] };
  return {
    text,
    resourceCount: request.resourceSpans.length,
    spans: request.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)),
  };
}

const keysOf = (attributes: OtlpKeyValue[]): string[] => attributes.map((kv) => kv.key).sort();

const protobufContains = (bytes: Uint8Array | undefined, text: string): boolean =>
  bytes !== undefined && Buffer.from(bytes).includes(Buffer.from(text));

/** True when a protobuf request holds a KeyValue whose key is `name` (field 1, length-delimited). */
const protobufHasKey = (bytes: Uint8Array | undefined, name: string): boolean => {
  const key = Buffer.from(name);
  return (
    bytes !== undefined && Buffer.from(bytes).includes(Buffer.concat([Buffer.from([0x0a, key.length]), key]))
  );
};

describe('createContentPolicy with captureContent false', () => {
  const policy = createContentPolicy({ captureContent: false });

  describe.each(fixtures)('on a $convention span', (fixture) => {
    const nonContent = Object.keys(fixture.attributes).filter(
      (name) => !fixture.contentAttributes.includes(name),
    );

    it('removes every content attribute and keeps the others identical', async () => {
      const span = await recordFixtureSpan(fixture);
      const copy = policy.span(span);
      for (const name of fixture.contentAttributes) expect(copy.attributes).not.toHaveProperty([name]);
      for (const name of Object.keys(copy.attributes)) expect(isContentAttribute(name)).toBe(false);
      const kept = Object.fromEntries(nonContent.map((name) => [name, span.attributes[name]]));
      expect(copy.attributes).toEqual(kept);
      for (const name of nonContent) expect(copy.attributes[name]).toEqual(fixture.attributes[name]);
    });

    it('clears the status message, strips exception text and content in events and links', async () => {
      const span = await recordFixtureSpan(fixture);
      const copy = policy.span(span);
      expect(copy.status).toEqual({ code: SpanStatusCode.ERROR });
      const exception = copy.events.find((event) => event.name === 'exception');
      expect(exception?.attributes).toEqual({ 'exception.type': 'Error' });
      const prompt = copy.events.find((event) => event.name === 'gen_ai.content.prompt');
      expect(prompt?.attributes).toEqual({ 'event.seq': 1 });
      expect(prompt?.time).toEqual(span.events[0]?.time);
      expect(copy.links).toHaveLength(1);
      expect(copy.links[0]?.attributes).toEqual({ 'link.kind': 'follows' });
      expect(copy.links[0]?.context).toEqual(span.links[0]?.context);
    });

    it('keeps identity, timing and resource, and leaves the input untouched', async () => {
      const span = await recordFixtureSpan(fixture);
      const before = snapshotSpan(span);
      const copy = policy.span(span);
      expect(snapshotSpan(span)).toEqual(before);
      expect(copy).not.toBe(span);
      expect(copy.attributes).not.toBe(span.attributes);
      expect(copy.spanContext()).toEqual(span.spanContext());
      expect(copy.parentSpanContext).toEqual(span.parentSpanContext);
      expect(copy.name).toBe(span.name);
      expect(copy.kind).toBe(span.kind);
      expect(copy.startTime).toEqual(span.startTime);
      expect(copy.endTime).toEqual(span.endTime);
      expect(copy.duration).toEqual(span.duration);
      expect(copy.ended).toBe(true);
      expect(copy.resource).toBe(span.resource);
      expect(copy.instrumentationScope).toBe(span.instrumentationScope);
      expect(copy.droppedAttributesCount).toBe(span.droppedAttributesCount);
    });

    it('serializes to OTLP JSON and protobuf without the stripped content', async () => {
      const span = await recordFixtureSpan(fixture);
      const copy = policy.span(span);
      const { text, spans } = serializeSpans([copy]);
      expect(spans).toHaveLength(1);
      const otlp = spans[0];
      expect(otlp !== undefined && keysOf(otlp.attributes)).toEqual([...nonContent].sort());
      expect(otlp?.status).toEqual({ code: SpanStatusCode.ERROR });
      expect(text).not.toContain(SECRET);
      for (const name of fixture.contentAttributes) expect(text).not.toContain(`"key":"${name}"`);
      const protobuf = ProtobufTraceSerializer.serializeRequest([copy]);
      expect(protobufContains(protobuf, fixture.spanName)).toBe(true);
      expect(protobufContains(protobuf, SECRET)).toBe(false);
      for (const name of fixture.contentAttributes) expect(protobufHasKey(protobuf, name)).toBe(false);
      for (const name of nonContent) expect(protobufHasKey(protobuf, name)).toBe(true);
    });
  });

  it('drops a log record body and its content attributes, keeping exception.type', async () => {
    const record = await emitLog({
      body: { messages: [{ role: 'user', content: SECRET }] },
      attributes: {
        'gen_ai.input.messages': `[{"content":"${SECRET}"}]`,
        'gen_ai.provider.name': 'openai',
        'app.step': 'answer',
      },
      exception: true,
    });
    const before = snapshotLog(record);
    const copy = policy.logRecord(record);
    expect(snapshotLog(record)).toEqual(before);
    expect(copy).not.toBe(record);
    expect(copy.body).toBeUndefined();
    expect(copy.attributes).toEqual({
      'gen_ai.provider.name': 'openai',
      'app.step': 'answer',
      'exception.type': 'Error',
    });
    expect(copy.eventName).toBe(record.eventName);
    expect(copy.severityNumber).toBe(SeverityNumber.INFO);
    expect(copy.hrTime).toEqual(record.hrTime);
    expect(copy.resource).toBe(record.resource);
    expect(copy.instrumentationScope).toBe(record.instrumentationScope);
    const json = JsonLogsSerializer.serializeRequest([copy]);
    expect(json).toBeDefined();
    const text = new TextDecoder().decode(json);
    expect(text).toContain('gen_ai.client.inference.operation.details');
    expect(text).not.toContain(SECRET);
    const protobuf = ProtobufLogsSerializer.serializeRequest([copy]);
    expect(protobufContains(protobuf, 'app.step')).toBe(true);
    expect(protobufContains(protobuf, SECRET)).toBe(false);
  });
});

describe('createContentPolicy with captureContent true', () => {
  const policy = createContentPolicy({ captureContent: true });

  it.each(fixtures)('keeps everything on a $convention span', async (fixture) => {
    const span = await recordFixtureSpan(fixture);
    const copy = policy.span(span);
    expect(copy).not.toBe(span);
    expect(copy.attributes).toEqual(span.attributes);
    expect(copy.events).toEqual(span.events);
    expect(copy.links).toEqual(span.links);
    expect(copy.status).toEqual({ code: SpanStatusCode.ERROR, message: `failed for ${SECRET}` });
    const { spans } = serializeSpans([copy]);
    expect(spans[0] !== undefined && keysOf(spans[0].attributes)).toEqual(
      Object.keys(fixture.attributes).sort(),
    );
  });

  it('keeps a log record body and exception text', async () => {
    const body = { messages: [{ role: 'user', content: SECRET }] };
    const record = await emitLog({ body, attributes: { 'gen_ai.input.messages': '[]' }, exception: true });
    const copy = policy.logRecord(record);
    expect(copy.body).toEqual(body);
    expect(copy.attributes).toEqual(record.attributes);
    expect(copy.attributes['exception.message']).toBe(`failed for ${SECRET}`);
    const text = new TextDecoder().decode(JsonLogsSerializer.serializeRequest([copy]));
    expect(text).toContain(SECRET);
  });
});

describe('createContentPolicy on attribute values captured when the span ended', () => {
  const captured = { 'gen_ai.input.messages': `[{"content":"${SECRET}"}]`, 'app.step': 'plan' };
  const rewritten = { 'gen_ai.input.messages': '[{"content":"@@@replaced@@@"}]', 'app.step': 'plan' };

  it.each([
    ['capture on', createContentPolicy({ captureContent: true }), captured],
    ['capture off', createContentPolicy({ captureContent: false }), { 'app.step': 'plan' }],
    [
      'a redactor',
      createContentPolicy({ captureContent: true, redact: (value) => value.replace(SECRET, '[email]') }),
      { 'gen_ai.input.messages': '[{"content":"[email]"}]', 'app.step': 'plan' },
    ],
  ])(
    'with %s, reads the captured values, not what a later processor left on the span',
    async (_, policy, expected) => {
      const span = await recordSpan({ attributes: rewritten });
      expect(policy.span(span, { ...captured }).attributes).toEqual(expected);
    },
  );
});

describe('createContentPolicy with a redactor', () => {
  const tagged: Redactor = (value) => `<${value}>`;

  it('rewrites every string of span, event, link and resource attributes and the status', async () => {
    const paths: string[] = [];
    const policy = createContentPolicy({
      captureContent: true,
      redact: (value, path) => {
        paths.push(path);
        return `<${value}>`;
      },
    });
    const span = await recordSpan({
      attributes: { 'app.note': 'a', 'app.tags': ['x', 'y'], 'app.count': 3, 'app.flag': true },
      eventAttributes: { 'app.event': 'e', 'app.seq': 1 },
      linkAttributes: { 'app.link': 'l' },
      statusMessage: 's',
      resource: { 'service.name': 'svc', 'deployment.environment.name': 'prod' },
    });
    const before = snapshotSpan(span);
    const copy = policy.span(span);
    expect(snapshotSpan(span)).toEqual(before);
    expect([...paths].sort()).toEqual(
      [
        'attributes.app.note',
        'attributes.app.tags[0]',
        'attributes.app.tags[1]',
        'events[0].app.event',
        'links[0].app.link',
        'status.message',
        'resource.service.name',
        'resource.deployment.environment.name',
      ].sort(),
    );
    expect(copy.attributes).toEqual({
      'app.note': '<a>',
      'app.tags': ['<x>', '<y>'],
      'app.count': 3,
      'app.flag': true,
    });
    expect(copy.events[0]?.attributes).toEqual({ 'app.event': '<e>', 'app.seq': 1 });
    expect(copy.links[0]?.attributes).toEqual({ 'app.link': '<l>' });
    expect(copy.status).toEqual({ code: SpanStatusCode.ERROR, message: '<s>' });
    expect(copy.resource.attributes).toEqual({
      'service.name': '<svc>',
      'deployment.environment.name': '<prod>',
    });
    const { text } = serializeSpans([copy]);
    expect(text).toContain('"stringValue":"<svc>"');
    expect(text).toContain('"stringValue":"<x>"');
    expect(text).not.toContain('"stringValue":"svc"');
  });

  it('runs before stripping: content attributes reach the redactor, then are removed', async () => {
    const paths: string[] = [];
    const policy = createContentPolicy({
      captureContent: false,
      redact: (value, path) => {
        paths.push(path);
        return value.toUpperCase();
      },
    });
    const span = await recordSpan({
      attributes: { 'gen_ai.input.messages': '[]', 'gen_ai.request.model': 'gpt-4o' },
      statusMessage: 'boom',
    });
    const copy = policy.span(span);
    expect(paths).toContain('attributes.gen_ai.input.messages');
    expect(paths).toContain('status.message');
    expect(copy.attributes).toEqual({ 'gen_ai.request.model': 'GPT-4O' });
    expect(copy.status).toEqual({ code: SpanStatusCode.ERROR });
  });

  it('redacts once per resource and keeps spans of one resource grouped', async () => {
    let resourceCalls = 0;
    const policy = createContentPolicy({
      captureContent: true,
      redact: (value, path) => {
        if (path.startsWith('resource.')) resourceCalls++;
        return value;
      },
    });
    const spans = await recordSpans({ attributes: { 'app.note': 'a' }, count: 3 });
    const copies = spans.map((span) => policy.span(span));
    expect(resourceCalls).toBe(1);
    expect(copies[1]?.resource).toBe(copies[0]?.resource);
    expect(serializeSpans(copies).resourceCount).toBe(1);
  });

  it('rewrites strings inside log bodies and log attributes with their paths', async () => {
    const paths: string[] = [];
    const policy = createContentPolicy({
      captureContent: true,
      redact: (value, path) => {
        paths.push(path);
        return value.replaceAll(SECRET, '[email]');
      },
    });
    const bytes = new Uint8Array([1, 2, 3]);
    const record = await emitLog({
      body: { text: `mail ${SECRET}`, parts: [SECRET, { note: 'n', size: 3 }], data: bytes },
      attributes: { 'app.obj': { inner: SECRET }, 'app.list': ['p'] },
    });
    const before = snapshotLog(record);
    const copy = policy.logRecord(record);
    expect(snapshotLog(record)).toEqual(before);
    expect(copy.body).toEqual({
      text: 'mail [email]',
      parts: ['[email]', { note: 'n', size: 3 }],
      data: bytes,
    });
    expect(copy.attributes).toEqual({ 'app.obj': { inner: '[email]' }, 'app.list': ['p'] });
    expect(paths.filter((path) => !path.startsWith('resource.')).sort()).toEqual(
      [
        'body.text',
        'body.parts[0]',
        'body.parts[1].note',
        'attributes.app.obj.inner',
        'attributes.app.list[0]',
      ].sort(),
    );
  });

  it('passes a string log body as body', async () => {
    const paths: string[] = [];
    const policy = createContentPolicy({
      captureContent: true,
      redact: (value, path) => {
        paths.push(path);
        return value.length.toString();
      },
    });
    const copy = policy.logRecord(await emitLog({ body: 'hello' }));
    expect(copy.body).toBe('5');
    expect(paths).toContain('body');
  });

  it('rejects the record when the redactor throws, naming the path and the error type but not the value', async () => {
    const policy = createContentPolicy({
      captureContent: false,
      redact: (value, path) => {
        if (path === 'attributes.gen_ai.input.messages') throw new RangeError(`cannot redact ${value}`);
        return value;
      },
    });
    const span = await recordSpan({
      attributes: { 'gen_ai.input.messages': `[{"content":"${SECRET}"}]`, 'app.note': 'a' },
    });
    const before = snapshotSpan(span);
    let caught: unknown;
    try {
      policy.span(span);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RecordRejectedError);
    expect(RecordRejectedError.isInstance(caught)).toBe(true);
    const error = caught as RecordRejectedError;
    expect(error.message).toBe('the redact callback threw for attributes.gen_ai.input.messages (RangeError)');
    expect(error.reason).toBe('redactor-threw');
    expect(error.path).toBe('attributes.gen_ai.input.messages');
    expect(error.message).not.toContain(SECRET);
    expect(error.cause).toBeUndefined();
    expect(snapshotSpan(span)).toEqual(before);
  });

  it('rejects the record when the redactor returns a non-string', async () => {
    const policy = createContentPolicy({
      captureContent: true,
      redact: (() => undefined) as unknown as Redactor,
    });
    const record = await emitLog({ body: { text: SECRET } });
    expect(() => policy.logRecord(record)).toThrow(
      new RecordRejectedError('redactor-returned-non-string', 'body.text'),
    );
    expect(() => policy.logRecord(record)).toThrow('the redact callback returned a non-string for body.text');
  });

  it('rejects a log body nested too deeply rather than leave it unredacted', async () => {
    let body: AnyValue = SECRET;
    for (let i = 0; i < 80; i++) body = { next: body };
    const policy = createContentPolicy({ captureContent: true, redact: tagged });
    const record = await emitLog({ body });
    expect(() => policy.logRecord(record)).toThrow(RecordRejectedError);
    expect(() => policy.logRecord(record)).toThrow(
      /^the value is nested too deeply to redact at body\.next\.next/,
    );
  });
});
