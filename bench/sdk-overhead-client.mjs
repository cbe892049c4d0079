/**
 * One side of the SDK overhead benchmark, run as a child process by `sdk-overhead.mjs`, so that
 * its CPU time is its own: `sdk` (`createSvc` + `withSpan` of `@svc-run/sdk`, built) or `plain`
 * (OpenTelemetry's `TracerProvider` + `BatchSpanProcessor` + the official OTLP/HTTP JSON
 * exporter). Both make the same spans and send them to the same reference server.
 *
 * IPC: receives `{ type: 'run', side, origin, key, spans, warmup, chunk, seed }`; answers
 * `{ type: 'result', ... }` (or `{ type: 'error', message }`) and exits.
 * @module
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { prng } from './bench-support.mjs';

const OTLP_PATH = '/api/v1/otlp/v1/traces';
const SDK_DIST = new URL('../packages/sdk/dist/index.js', import.meta.url);

/** The five attributes of every span; `index` makes one of them differ per span. */
function attributesOf(index) {
  return {
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': 'bench-model-1',
    'gen_ai.usage.input_tokens': 512 + (index % 64),
    'gen_ai.usage.output_tokens': 256 + (index % 32),
    'bench.span.index': index,
  };
}

const WORDS =
  'the a model tool answer question agent search result context document user assistant system token stream call retry cache latency budget plan step summary'.split(
    ' ',
  );

function text(next, chars) {
  let out = '';
  while (out.length < chars) out += `${WORDS[Math.floor(next() * WORDS.length)]} `;
  return out.slice(0, chars);
}

/**
 * A pool of inputs and outputs: chat-shaped objects whose JSON is about 2 KiB each. Spans cycle
 * through the pool; each span still serializes its own (JSON.stringify runs for every span).
 */
function contentPool(seed, size = 64) {
  const next = prng(seed);
  const inputs = [];
  const outputs = [];
  for (let i = 0; i < size; i++) {
    inputs.push({
      messages: [
        { role: 'system', content: text(next, 400) },
        { role: 'user', content: text(next, 1_500) },
      ],
      temperature: 0.2,
      variant: i,
    });
    outputs.push({
      message: { role: 'assistant', content: text(next, 1_850) },
      finishReason: 'stop',
      variant: i,
    });
  }
  return { inputs, outputs };
}

/**
 * CPU time of this process's main thread and of its other threads (V8's GC and compiler helpers,
 * libuv), in µs, from Linux's /proc (clock ticks of 10 ms); `undefined` elsewhere.
 */
function threadCpuMicros() {
  try {
    const split = { main: 0, others: 0 };
    for (const tid of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): utime and stime are the 12th/13th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const micros = (Number(fields[11]) + Number(fields[12])) * 10_000;
      split[tid === String(process.pid) ? 'main' : 'others'] += micros;
    }
    return split;
  } catch {
    return undefined;
  }
}

// --- the two sides -----------------------------------------------------------------------------

async function sdkSide({ origin, key }) {
  if (!existsSync(SDK_DIST)) {
    throw new Error(
      `${fileURLToPath(SDK_DIST)} is missing: build the SDK first ` +
        '(cd packages/sdk && npx -y pnpm@10.34.8 run build, or run `pnpm bench`)',
    );
  }
  const { createSvc } = await import(SDK_DIST.href);
  const svc = createSvc({ apiKey: key, baseUrl: origin, serviceName: 'bench-sdk', captureContent: true });
  let flushErrors = 0;
  return {
    /**
     * Produces one span: `withSpan` with 5 attributes, input and output. With `ids`, returns the
     * span's trace and span IDs.
     */
    span(index, input, output, ids) {
      return svc.withSpan(
        'chat bench-model-1',
        (span) => {
          span.setOutput(output);
          return ids ? { traceId: span.traceId, spanId: span.spanId } : undefined;
        },
        { input, attributes: attributesOf(index) },
      );
    },
    async flush() {
      // Rejects (SvcExportError) when spans were rejected, failed or dropped: counted, reported.
      await svc.flush().catch(() => {
        flushErrors++;
      });
    },
    outcome() {
      const r = svc.transport.getReport();
      return {
        accepted: r.acceptedSpans,
        dropped: r.droppedSpans,
        failed: r.failedSpans + r.rejectedSpans,
        flushErrors,
      };
    },
    shutdown: () => svc.shutdown(),
  };
}

async function plainSide({ origin, key }) {
  const [{ SpanKind }, { resourceFromAttributes }, { BatchSpanProcessor, TracerProvider }, otlp] =
    await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/sdk-trace'),
      import('@opentelemetry/exporter-trace-otlp-http'),
    ]);
  const exporter = new otlp.OTLPTraceExporter({
    url: `${origin}${OTLP_PATH}`,
    headers: { authorization: `Bearer ${key}` },
  });
  // Counts what the official exporter reports, without changing what it does.
  const counts = { accepted: 0, failed: 0, produced: 0 };
  let flushErrors = 0;
  const counting = {
    export(spans, done) {
      exporter.export(spans, (result) => {
        if (result.code === 0) counts.accepted += spans.length;
        else counts.failed += spans.length;
        done(result);
      });
    },
    forceFlush: () => exporter.forceFlush(),
    shutdown: () => exporter.shutdown(),
  };
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'bench-plain' }),
    spanProcessors: [new BatchSpanProcessor({ exporter: counting })],
  });
  const tracer = provider.getTracer('bench-plain', '1.0.0');
  return {
    /**
     * Produces the same span with the OpenTelemetry API: the application serializes its input and
     * output to the same JSON the SDK records (`input.value`, `output.value` and their MIME types).
     */
    span(index, input, output, ids) {
      counts.produced++;
      return tracer.startActiveSpan(
        'chat bench-model-1',
        { kind: SpanKind.INTERNAL, attributes: attributesOf(index) },
        (span) => {
          try {
            span.setAttribute('input.value', JSON.stringify(input));
            span.setAttribute('input.mime_type', 'application/json');
            span.setAttribute('output.value', JSON.stringify(output));
            span.setAttribute('output.mime_type', 'application/json');
            return ids
              ? { traceId: span.spanContext().traceId, spanId: span.spanContext().spanId }
              : undefined;
          } finally {
            span.end();
          }
        },
      );
    },
    async flush() {
      // The processor's forceFlush exports what it holds but does not wait for a batch it already
      // handed to the exporter; the exporter's forceFlush waits for its requests in flight. Both,
      // so that everything produced so far is answered, as the SDK's flush() does. Rejects when an
      // export failed: counted, reported.
      await provider
        .forceFlush()
        .then(() => exporter.forceFlush())
        .catch(() => {
          flushErrors++;
        });
    },
    outcome() {
      return {
        accepted: counts.accepted,
        failed: counts.failed,
        // What neither succeeded nor failed after the last flush: dropped by the processor's queue.
        dropped: counts.produced - counts.accepted - counts.failed,
        flushErrors,
      };
    },
    shutdown: () => provider.shutdown(),
  };
}

// --- run ---------------------------------------------------------------------------------------

/**
 * Produces `count` spans from index `first`, flushing after every `chunk` spans (so that no queue
 * ever fills up and drops); returns the IDs of the middle span.
 */
async function produce(side, pool, first, count, chunk) {
  const middle = Math.floor(count / 2);
  let ids;
  for (let done = 0; done < count; ) {
    for (const end = Math.min(count, done + chunk); done < end; done++) {
      const index = first + done;
      const k = index % pool.inputs.length;
      const result = side.span(index, pool.inputs[k], pool.outputs[k], done === middle);
      if (done === middle) ids = result;
    }
    await side.flush();
  }
  return ids;
}

async function run({ side: name, origin, key, spans, warmup, chunk, seed }) {
  const side = name === 'sdk' ? await sdkSide({ origin, key }) : await plainSide({ origin, key });
  const pool = contentPool(seed);
  const average = (list) => list.reduce((n, v) => n + Buffer.byteLength(JSON.stringify(v)), 0) / list.length;

  // Warm-up: loads and compiles the produce and the export paths before timing.
  await produce(side, pool, 0, warmup, chunk);

  const started = performance.now();
  const threadsBefore = threadCpuMicros();
  const cpuBefore = process.cpuUsage();
  const check = await produce(side, pool, warmup, spans, chunk);
  const cpu = process.cpuUsage(cpuBefore);
  const threadsAfter = threadCpuMicros();
  const wallMillis = performance.now() - started;
  const threads =
    threadsBefore && threadsAfter
      ? { main: threadsAfter.main - threadsBefore.main, others: threadsAfter.others - threadsBefore.others }
      : undefined;

  const outcome = side.outcome();
  await side.shutdown();
  return {
    type: 'result',
    side: name,
    spans,
    produced: warmup + spans,
    userMicros: cpu.user,
    systemMicros: cpu.system,
    wallMillis,
    threads,
    inputBytes: average(pool.inputs),
    outputBytes: average(pool.outputs),
    outcome,
    check,
  };
}

process.once('message', async (message) => {
  let answer;
  try {
    answer = await run(message);
  } catch (error) {
    answer = {
      type: 'error',
      message: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
  }
  // Exits once the answer is sent: idle keep-alive sockets must not keep the child alive.
  process.send(answer, () => process.exit(0));
});
process.send({ type: 'ready' });
