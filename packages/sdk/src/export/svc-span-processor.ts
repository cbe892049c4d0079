/**
 * The service's span processor: queues every sampled span that ends into the trace pipeline,
 * with its attribute values as they were when it ended (a processor attached after this one may
 * rewrite them in place; see `ended-span.ts`). Attach it to any tracer provider (see
 * `createSvcTransport`). A flush sends the queued spans, then waits for the uploads of files
 * queued before it.
 * @module
 */
import { TraceFlags } from '@opentelemetry/api';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace';
import { captureEndedSpan, type EndedSpan } from './ended-span.js';
import type { SignalPipeline } from './signal-pipeline.js';

/** Queues ended, sampled spans for export to the service. */
export class SvcSpanProcessor implements SpanProcessor {
  readonly #pipeline: SignalPipeline<EndedSpan, ReadableSpan>;
  readonly #uploads: () => Promise<void>;

  /** `uploads` resolves once the file uploads queued before the call have ended. */
  constructor(
    pipeline: SignalPipeline<EndedSpan, ReadableSpan>,
    uploads: () => Promise<void> = async () => {},
  ) {
    this.#pipeline = pipeline;
    this.#uploads = uploads;
  }

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if ((span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    this.#pipeline.add(captureEndedSpan(span));
  }

  /**
   * Exports what is queued, then waits for the uploads queued before; resolves once both settled
   * (failures are in the transport's issues and report).
   */
  async forceFlush(): Promise<void> {
    await this.#pipeline.flush();
    await this.#uploads();
  }

  async shutdown(): Promise<void> {
    await this.#pipeline.shutdown();
    await this.#uploads();
  }
}
