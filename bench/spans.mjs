/**
 * Realistic GenAI (LLM agent) spans for the ingest benchmark, made by a real
 * `@opentelemetry/sdk-trace` tracer and serialized by `@opentelemetry/otlp-transformer`, i.e. the
 * bytes an OpenTelemetry exporter sends. Deterministic: a seeded generator picks the content and
 * the IDs.
 *
 * Each trace is one agent run of 8 spans: `invoke_agent` (root), 5 `chat` model calls and 2
 * `execute_tool` calls, with OpenTelemetry GenAI semantic-convention attributes
 * (`gen_ai.input.messages` / `gen_ai.output.messages` as JSON strings of chat messages, token
 * usage, models, tool calls). Each span carries about {@link TARGET_ATTRIBUTE_BYTES} bytes of
 * attributes (keys plus values).
 * @module
 */
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { prng } from './bench-support.mjs';

/** Spans per trace (one agent run). */
export const SPANS_PER_TRACE = 8;

/** Average attribute bytes per span (keys plus values), varied ±20 % per span. */
export const TARGET_ATTRIBUTE_BYTES = 2048;

const WORDS = (
  'the a to of and in for is on that with your you order account refund invoice billing plan ' +
  'subscription customer support ticket issue error request update payment card charge period ' +
  'policy days within after before please thanks help need can could would should will we our ' +
  'team check status shipping delivery address tracking number return item product warranty ' +
  'replacement damaged missing late delayed estimate week business api key rate limit quota ' +
  'usage dashboard settings password reset login email verification code sent received confirm ' +
  'cancel renew upgrade downgrade annual monthly discount coupon tax region currency receipt ' +
  'document knowledge base article section according summary answer question context tool result ' +
  'search found matching records latest previous customer-facing internal note escalate agent'
).split(' ');

const SERVICES = [
  { name: 'support-agent', agent: 'SupportAgent', tool: 'search_knowledge_base' },
  { name: 'billing-agent', agent: 'BillingAgent', tool: 'lookup_invoice' },
  { name: 'research-agent', agent: 'ResearchAgent', tool: 'web_search' },
];

const MODELS = [
  { provider: 'openai', request: 'gpt-4o', response: 'gpt-4o-2024-08-06', host: 'api.openai.com' },
  { provider: 'openai', request: 'gpt-4o-mini', response: 'gpt-4o-mini-2024-07-18', host: 'api.openai.com' },
  {
    provider: 'anthropic',
    request: 'claude-sonnet-4-5',
    response: 'claude-sonnet-4-5-20250929',
    host: 'api.anthropic.com',
  },
];

/** Bytes of an attribute map as "keys plus values" (numbers and booleans count 8). */
export function attributeBytes(attributes) {
  let n = 0;
  for (const [key, value] of Object.entries(attributes)) {
    n += Buffer.byteLength(key);
    if (typeof value === 'string') n += Buffer.byteLength(value);
    else if (Array.isArray(value))
      for (const v of value) n += typeof v === 'string' ? Buffer.byteLength(v) : 8;
    else n += 8;
  }
  return n;
}

/** Builds batches of spans. */
export class SpanFactory {
  constructor(seed = 42) {
    this.random = prng(seed);
    const idRandom = prng(seed ^ 0x5bd1e995);
    const hex = (bytes) => {
      let s = '';
      while (s.length < bytes * 2)
        s += Math.floor(idRandom() * 4294967296)
          .toString(16)
          .padStart(8, '0');
      s = s.slice(0, bytes * 2);
      return /^0+$/.test(s) ? `1${s.slice(1)}` : s;
    };
    const idGenerator = { generateTraceId: () => hex(16), generateSpanId: () => hex(8) };
    this.providers = SERVICES.map((service, i) => {
      const exporter = new InMemorySpanExporter();
      const provider = new TracerProvider({
        idGenerator,
        resource: resourceFromAttributes({
          'service.name': service.name,
          'service.version': '2.14.3',
          'service.namespace': 'acme-assistants',
          'service.instance.id': `b3f1c2d4-77aa-4c1e-9d2f-0000000000${i}${i}`,
          'deployment.environment.name': 'production',
          'host.name': `ip-10-0-12-${40 + i}.ec2.internal`,
          'cloud.provider': 'aws',
          'cloud.region': 'eu-west-1',
          'process.runtime.name': 'nodejs',
          'process.runtime.version': '24.9.0',
          'process.pid': 4100 + i,
          'telemetry.sdk.name': 'opentelemetry',
          'telemetry.sdk.language': 'nodejs',
          'telemetry.sdk.version': '3.1.1',
        }),
        spanProcessors: [new SimpleSpanProcessor({ exporter })],
      });
      return { service, exporter, tracer: provider.getTracer('@acme/agent-runtime', '0.9.2') };
    });
    // A corpus of seeded prose; text() slices it, which is much faster than word-by-word generation.
    const words = [];
    let sentence = 0;
    for (let n = 0; n < 1 << 20; ) {
      let w = this.pick(WORDS);
      if (sentence === 0) w = w[0].toUpperCase() + w.slice(1);
      if (++sentence > 8 && this.random() < 0.15) {
        w += '.';
        sentence = 0;
      }
      words.push(w);
      n += w.length + 1;
    }
    this.corpus = words.join(' ');
    this.sentenceStarts = [];
    for (const match of this.corpus.matchAll(/\. /g)) {
      if (match.index < this.corpus.length - 8192) this.sentenceStarts.push(match.index + 2);
    }
    this.batchCount = 0;
    /** Wall-clock origin of the generated traces: a few minutes ago. */
    this.clockMs = Date.now() - 10 * 60 * 1000;
    /** Attribute bytes and count of every generated span, for the report. */
    this.attributeBytesTotal = 0;
    this.spanTotal = 0;
  }

  pick(list) {
    return list[Math.floor(this.random() * list.length)];
  }

  /** An OpenTelemetry HrTime for epoch milliseconds `ms`, with sub-millisecond noise. */
  hr(ms) {
    const whole = Math.floor(ms);
    return [Math.floor(whole / 1000), (whole % 1000) * 1e6 + this.int(0, 999_999)];
  }

  int(min, max) {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  /** Prose of about `bytes` bytes: a slice of a seeded corpus, starting at a sentence. */
  text(bytes) {
    const length = Math.max(0, Math.floor(bytes));
    let start = this.sentenceStarts[Math.floor(this.random() * this.sentenceStarts.length)];
    if (start + length > this.corpus.length) start = 0;
    return this.corpus.slice(start, start + length);
  }

  hexId(length) {
    let s = '';
    while (s.length < length) s += Math.floor(this.random() * 4294967296).toString(36);
    return s.slice(0, length);
  }

  /**
   * Fills message contents so the span's attributes reach about the target size: `fixed` holds
   * every attribute but the message ones, `build(sizes)` returns the message attributes for the
   * given content sizes.
   */
  fill(fixed, parts, build) {
    const target = TARGET_ATTRIBUTE_BYTES * (0.8 + 0.4 * this.random());
    const skeleton = attributeBytes({ ...fixed, ...build(parts.map(() => 0)) });
    const free = Math.max(64, target - skeleton);
    const sizes = parts.map((share) => Math.floor(free * share));
    const attributes = { ...fixed, ...build(sizes) };
    this.attributeBytesTotal += attributeBytes(attributes);
    this.spanTotal++;
    return attributes;
  }

  /** One agent run of {@link SPANS_PER_TRACE} spans, started at `startMs`. */
  agentRun(entry, startMs) {
    const { tracer, service } = entry;
    const model = this.pick(MODELS);
    const conversation = `conv_${this.hexId(24)}`;
    const question = this.text(this.int(80, 200));
    const answer = this.text(this.int(200, 500));
    const chats = 5;
    const tools = 2;
    const runMs = this.int(3000, 12000);
    let totalIn = 0;
    let totalOut = 0;
    const children = [];
    let at = startMs + this.int(5, 40);
    for (let i = 0; i < chats + tools; i++) {
      const isTool = i === 1 || i === 3;
      const duration = isTool ? this.int(40, 600) : this.int(400, Math.max(500, runMs / chats - 300));
      children.push({ isTool, start: at, end: at + duration });
      at += duration + this.int(2, 30);
    }
    const endMs = Math.max(at + this.int(2, 20), startMs + runMs);
    const rootAttributes = this.fill(
      {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.provider.name': model.provider,
        'gen_ai.agent.name': service.agent,
        'gen_ai.agent.id': `asst_${this.hexId(20)}`,
        'gen_ai.conversation.id': conversation,
        'gen_ai.request.model': model.request,
        'gen_ai.usage.input_tokens': 0,
        'gen_ai.usage.output_tokens': 0,
        'enduser.id': `user_${this.int(1000, 99999)}`,
        'session.id': `sess_${this.hexId(16)}`,
      },
      [0.35, 0.65],
      ([q, a]) => ({
        'gen_ai.input.messages': JSON.stringify([
          { role: 'user', parts: [{ type: 'text', content: `${question} ${this.text(q)}`.slice(0, q) }] },
        ]),
        'gen_ai.output.messages': JSON.stringify([
          {
            role: 'assistant',
            parts: [{ type: 'text', content: `${answer} ${this.text(a)}`.slice(0, a) }],
            finish_reason: 'stop',
          },
        ]),
      }),
    );
    const root = tracer.startSpan(
      `invoke_agent ${service.agent}`,
      { kind: SpanKind.INTERNAL, startTime: this.hr(startMs), attributes: rootAttributes },
      context.active(),
    );
    const parent = trace.setSpan(context.active(), root);
    for (const child of children) {
      if (child.isTool) {
        const callId = `call_${this.hexId(24)}`;
        const attributes = this.fill(
          {
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.name': service.tool,
            'gen_ai.tool.type': 'function',
            'gen_ai.tool.call.id': callId,
            'gen_ai.tool.description': `Looks up ${service.tool.split('_').slice(1).join(' ')} records.`,
          },
          [0.15, 0.85],
          ([q, r]) => ({
            'gen_ai.tool.call.arguments': JSON.stringify({ query: this.text(q), top_k: 5, locale: 'en-US' }),
            'gen_ai.tool.call.result': JSON.stringify({
              results: [
                { id: `doc_${this.int(1, 9999)}`, score: 0.91, snippet: this.text(r / 2) },
                { id: `doc_${this.int(1, 9999)}`, score: 0.77, snippet: this.text(r / 2 - 80) },
              ],
            }),
          }),
        );
        const span = tracer.startSpan(
          `execute_tool ${service.tool}`,
          { kind: SpanKind.INTERNAL, startTime: this.hr(child.start), attributes },
          parent,
        );
        if (this.random() < 0.03) {
          span.recordException(
            { name: 'ToolTimeoutError', message: 'tool call timed out after 5000 ms' },
            this.hr(child.end - 1),
          );
          span.setStatus({ code: SpanStatusCode.ERROR, message: 'tool call timed out' });
        }
        span.end(this.hr(child.end));
        continue;
      }
      const inputTokens = this.int(400, 6000);
      const outputTokens = this.int(20, 800);
      totalIn += inputTokens;
      totalOut += outputTokens;
      const attributes = this.fill(
        {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': model.provider,
          'gen_ai.request.model': model.request,
          'gen_ai.response.model': model.response,
          'gen_ai.response.id': `chatcmpl-${this.hexId(29)}`,
          'gen_ai.request.temperature': 0.2,
          'gen_ai.request.max_tokens': 1024,
          'gen_ai.response.finish_reasons': ['stop'],
          'gen_ai.usage.input_tokens': inputTokens,
          'gen_ai.usage.output_tokens': outputTokens,
          'gen_ai.conversation.id': conversation,
          'server.address': model.host,
          'server.port': 443,
        },
        [0.2, 0.45, 0.35],
        ([system, user, out]) => ({
          'gen_ai.input.messages': JSON.stringify([
            {
              role: 'system',
              parts: [{ type: 'text', content: `You are ${service.agent}. ${this.text(system)}` }],
            },
            {
              role: 'user',
              parts: [{ type: 'text', content: `${question} ${this.text(user)}`.slice(0, user) }],
            },
          ]),
          'gen_ai.output.messages': JSON.stringify([
            { role: 'assistant', parts: [{ type: 'text', content: this.text(out) }], finish_reason: 'stop' },
          ]),
        }),
      );
      const span = tracer.startSpan(
        `chat ${model.request}`,
        { kind: SpanKind.CLIENT, startTime: this.hr(child.start), attributes },
        parent,
      );
      span.end(this.hr(child.end));
    }
    root.setAttribute('gen_ai.usage.input_tokens', totalIn);
    root.setAttribute('gen_ai.usage.output_tokens', totalOut);
    root.end(this.hr(endMs));
  }

  /** The finished spans of one batch of `spans` spans (whole traces), from one service. */
  batch(spans) {
    const entry = this.providers[this.batchCount++ % this.providers.length];
    entry.exporter.reset();
    for (let i = 0; i < spans / SPANS_PER_TRACE; i++) {
      this.clockMs += this.int(5, 60);
      this.agentRun(entry, this.clockMs);
    }
    const finished = entry.exporter.getFinishedSpans();
    if (finished.length !== spans)
      throw new Error(`expected ${spans} finished spans, got ${finished.length}`);
    return finished;
  }
}

/**
 * OTLP JSON as the OpenTelemetry JSON serializer writes it (hex IDs, timestamps as strings), with
 * `intValue` as strings, the canonical proto3 JSON form of int64 (the JS serializer writes numbers;
 * the server takes both).
 */
export function jsonBody(spans) {
  const json = new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans));
  // An unescaped `"intValue":` is a key, never text inside a string value (its quotes are escaped).
  return Buffer.from(json.replace(/(?<!\\)"intValue":(-?\d+)/g, '"intValue":"$1"'));
}

/** OTLP protobuf, as the OpenTelemetry protobuf serializer writes it. */
export function protobufBody(spans) {
  const bytes = ProtobufTraceSerializer.serializeRequest(spans);
  if (bytes === undefined) throw new Error('protobuf serialization failed');
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The trace IDs of a batch, in first-seen order. */
export function traceIdsOf(spans) {
  return [...new Set(spans.map((s) => s.spanContext().traceId))];
}
