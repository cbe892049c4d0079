/**
 * Fault injection for tests: makes the next requests of a route answer 429 or 503, hang, or
 * reset their connection. It exists only when `startServer({ faultInjection: true })` (or
 * `createApp({ faults })`) asks for it; nothing over HTTP can turn it on.
 *
 * Tests stay deterministic on a loaded machine by waiting for events, not for time: a `hang`
 * without `millis` holds its request until the test calls {@link FaultInjector.release} (or
 * {@link FaultInjector.clear}, or the server closes), and {@link FaultInjector.seen} counts the
 * requests that reached a route, so a test can wait until its request has arrived.
 * @module
 */
/** One injected fault. */
export type Fault =
  /** Answer with this status, a JSON error body and `Retry-After` (seconds, default 1). */
  | { kind: 'status'; status: 429 | 503; retryAfterSeconds?: number }
  /**
   * Hold the request, then handle it normally: for `millis` when given, else until the test
   * releases it ({@link FaultInjector.release}, {@link FaultInjector.clear} or the server closing).
   */
  | { kind: 'hang'; millis?: number }
  /** Destroy the connection without answering. */
  | { kind: 'reset' };

/**
 * Faults queued per route, taken one per request in order. Routes are named by their ID in the
 * route table (`RouteId`, the default).
 */
export class FaultInjector<RouteId extends string = string> {
  readonly #queues = new Map<RouteId, Fault[]>();
  readonly #seen = new Map<RouteId, number>();
  readonly #held = new Map<RouteId, Set<() => void>>();

  /** Makes the next `times` requests of `route` meet `fault`. */
  inject(route: RouteId, fault: Fault, times = 1): void {
    if (!Number.isInteger(times) || times < 1)
      throw new TypeError(`times must be a positive integer; got ${times}`);
    const queue = this.#queues.get(route) ?? [];
    for (let i = 0; i < times; i++) queue.push(fault);
    this.#queues.set(route, queue);
  }

  /** Removes the queued faults of `route`, or of every route, and releases the requests held. */
  clear(route?: RouteId): void {
    if (route === undefined) this.#queues.clear();
    else this.#queues.delete(route);
    this.release(route);
  }

  /** Lets the requests held by an open-ended `hang` of `route` (or of every route) go on. */
  release(route?: RouteId): number {
    const sets = route === undefined ? [...this.#held.values()] : [this.#held.get(route) ?? new Set()];
    let released = 0;
    for (const set of sets) {
      for (const resume of set) resume();
      released += set.size;
      set.clear();
    }
    return released;
  }

  /** How many faults are still queued for `route`. */
  pending(route: RouteId): number {
    return this.#queues.get(route)?.length ?? 0;
  }

  /** How many requests of `route` have reached the server (with or without a fault). */
  seen(route: RouteId): number {
    return this.#seen.get(route) ?? 0;
  }

  /** How many requests of `route` an open-ended `hang` is holding now. */
  held(route: RouteId): number {
    return this.#held.get(route)?.size ?? 0;
  }

  /** Takes the next fault of `route`, if any, counting the request as seen. */
  take(route: RouteId): Fault | undefined {
    this.#seen.set(route, this.seen(route) + 1);
    return this.#queues.get(route)?.shift();
  }

  /** Holds a request of `route` until {@link release}; the route guard's part of a `hang`. */
  hold(route: RouteId): Promise<void> {
    return new Promise((resolve) => {
      const set = this.#held.get(route) ?? new Set();
      this.#held.set(route, set);
      set.add(resolve);
    });
  }
}
