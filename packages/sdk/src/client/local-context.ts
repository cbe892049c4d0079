/**
 * The client's own async context, kept in a private `AsyncLocalStorage` context manager that is
 * never registered globally. Lookups use it first, then the application's active OpenTelemetry
 * context, so spans nest correctly whether or not the application registered a context manager.
 * @module
 */

import { type Context, context, ROOT_CONTEXT } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';

/** A private context manager with a fallback to the global one. */
export class LocalContext {
  readonly #manager = new AsyncLocalStorageContextManager().enable();

  /** The innermost context set by this client's callbacks, else the active OpenTelemetry context. */
  active(): Context {
    const local = this.#manager.active();
    return local === ROOT_CONTEXT ? context.active() : local;
  }

  /** Runs `fn` with `ctx` as this client's active context. */
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.#manager.with(ctx, fn, thisArg, ...args);
  }
}
