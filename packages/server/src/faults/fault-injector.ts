/**
 * Fault injection for tests: makes the next requests of a route answer 429 or 503, hang, or
 * reset their connection. It exists only when `startServer({ faultInjection: true })` (or
 * `createApp({ faults })`) asks for it; nothing over HTTP can turn it on.
 * @module
 */
import type { RouteId } from '../auth/key-presets.js';

/** One injected fault. */
export type Fault =
  /** Answer with this status, a JSON error body and `Retry-After` (seconds, default 1). */
  | { kind: 'status'; status: 429 | 503; retryAfterSeconds?: number }
  /** Wait `millis` before handling the request normally. */
  | { kind: 'hang'; millis: number }
  /** Destroy the connection without answering. */
  | { kind: 'reset' };

/** Faults queued per route, taken one per request in order. */
export class FaultInjector {
  readonly #queues = new Map<RouteId, Fault[]>();

  /** Makes the next `times` requests of `route` meet `fault`. */
  inject(route: RouteId, fault: Fault, times = 1): void {
    if (!Number.isInteger(times) || times < 1)
      throw new TypeError(`times must be a positive integer; got ${times}`);
    const queue = this.#queues.get(route) ?? [];
    for (let i = 0; i < times; i++) queue.push(fault);
    this.#queues.set(route, queue);
  }

  /** Removes the queued faults of `route`, or of every route. */
  clear(route?: RouteId): void {
    if (route === undefined) this.#queues.clear();
    else this.#queues.delete(route);
  }

  /** How many faults are still queued for `route`. */
  pending(route: RouteId): number {
    return this.#queues.get(route)?.length ?? 0;
  }

  /** Takes the next fault of `route`, if any. */
  take(route: RouteId): Fault | undefined {
    return this.#queues.get(route)?.shift();
  }
}
