/**
 * The service's span processor: queues every sampled span that ends into the trace pipeline.
 * Attach it to any tracer provider (see `createSvcTransport`).
 * @module
 */
import { TraceFlags } from '@opentelemetry/api';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace';
import type { SignalPipeline } from './signal-pipeline.js';

/** Queues ended, sampled spans for export to the service. */
export class SvcSpanProcessor implements SpanProcessor {
  readonly #pipeline: SignalPipeline<ReadableSpan>;

  constructor(pipeline: SignalPipeline<ReadableSpan>) {
    this.#pipeline = pipeline;
  }

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if ((span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    this.#pipeline.add(span);
  }

  /** Exports what is queued; resolves once it settled (failures are in the transport's issues). */
  forceFlush(): Promise<void> {
    return this.#pipeline.flush();
  }

  shutdown(): Promise<void> {
    return this.#pipeline.shutdown();
  }
}
