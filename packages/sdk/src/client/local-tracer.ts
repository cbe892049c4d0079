/**
 * A tracer that parents spans on the client's local context (see `LocalContext`) and runs
 * `startActiveSpan` callbacks inside it, so nested work finds its parent without a global
 * context manager.
 * @module
 */
import { type Context, type Span, type SpanOptions, type Tracer, trace } from '@opentelemetry/api';
import type { LocalContext } from './local-context.js';

type ActiveSpanArgs<F> =
  | [fn: F]
  | [options: SpanOptions, fn: F]
  | [options: SpanOptions, ctx: Context, fn: F];

/** Wraps `tracer` so that it reads and sets `local` as its active context. */
export function localTracer(tracer: Tracer, local: LocalContext): Tracer {
  return {
    startSpan(name: string, options?: SpanOptions, ctx?: Context): Span {
      return tracer.startSpan(name, options, ctx ?? local.active());
    },
    startActiveSpan<F extends (span: Span) => unknown>(
      name: string,
      ...args: ActiveSpanArgs<F>
    ): ReturnType<F> {
      const fn = args[args.length - 1] as F;
      const options = args.length >= 2 ? (args[0] as SpanOptions) : undefined;
      const parent = args.length === 3 ? (args[1] as Context) : local.active();
      const span = tracer.startSpan(name, options, parent);
      return local.with(trace.setSpan(parent, span), fn as (span: Span) => ReturnType<F>, undefined, span);
    },
  } as Tracer;
}
