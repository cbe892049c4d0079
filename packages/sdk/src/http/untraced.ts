/**
 * Runs the SDK's own HTTP exchanges with tracing suppressed (`suppressTracing` of
 * `@opentelemetry/core` on the active context), so an application's HTTP instrumentation
 * (`@opentelemetry/instrumentation-undici`, `-http`) records no span for them: an OTLP export
 * that made a span would be exported in turn, and so on.
 * @module
 */
import { context } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';

/** Runs `fn` in the active context with tracing suppressed. */
export function untraced<T>(fn: () => Promise<T>): Promise<T> {
  return context.with(suppressTracing(context.active()), fn);
}
