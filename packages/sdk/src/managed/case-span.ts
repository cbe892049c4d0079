/**
 * The span a managed execution runs in: with a tracer, a new trace (a root span named `eval.case`,
 * like the local runner's) whose trace ID becomes the execution's trace; without one, a random
 * trace ID the target may use for its own telemetry.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { isSpanContextValid, type Span, SpanStatusCode, type Tracer } from '@opentelemetry/api';

/** The span name of a managed execution (the local runner's case span name). */
export const MANAGED_CASE_SPAN_NAME = 'eval.case';

/** A random nonzero 32-hex trace ID. */
export function randomTraceId(): string {
  for (;;) {
    const id = randomBytes(16).toString('hex');
    if (!/^0+$/.test(id)) return id;
  }
}

/** Runs `work` inside the execution's span (ended when `work` settles), or without a span. */
export async function inCaseSpan<T>(
  tracer: Tracer | undefined,
  attributes: Record<string, string>,
  work: (span: Span | undefined, traceId: string) => Promise<T>,
): Promise<T> {
  if (tracer === undefined) return work(undefined, randomTraceId());
  return tracer.startActiveSpan(MANAGED_CASE_SPAN_NAME, { root: true, attributes }, async (span: Span) => {
    try {
      const context = span.spanContext();
      return await work(span, isSpanContextValid(context) ? context.traceId : randomTraceId());
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}
