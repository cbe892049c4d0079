/**
 * Admission of request bodies against a {@link BodyBudget}: the middleware opens an account for
 * each request and closes it once the request has been answered, giving back whatever the
 * request's body was charged; the body readers (`read-request-body.ts`, `request-body-chunks.ts`)
 * find the account of the request they read and charge it.
 * @module
 */
import type { HttpBindings } from '@hono/node-server';
import type { MiddlewareHandler } from 'hono';
import { type BodyBudget, bodyBudgetExhausted } from './body-budget.js';

/** What one request's body has taken from the budget, and how many bytes of it were read. */
export class BodyAccount {
  readonly #budget: BodyBudget;
  #charged = 0;
  #received = 0;
  #closed = false;

  constructor(budget: BodyBudget) {
    this.#budget = budget;
  }

  /** Bytes the request may still be charged now (the budget's room). */
  get room(): number {
    return this.#closed ? 0 : this.#budget.room;
  }

  /** Bytes charged to this request now. */
  get charged(): number {
    return this.#charged;
  }

  /** Bytes of the body read so far (charged or not). */
  get received(): number {
    return this.#received;
  }

  /**
   * Charges `bytes` of body held (or about to be) in memory.
   * @throws ApiError 503 `unavailable` with `Retry-After` when the budget has no room for them.
   */
  charge(bytes: number): void {
    if (this.#closed || !this.#budget.tryCharge(bytes)) throw bodyBudgetExhausted();
    this.#charged += bytes;
  }

  /** Gives back `bytes` of what was charged (their buffer was freed). */
  refund(bytes: number): void {
    const given = Math.min(bytes, this.#charged);
    this.#charged -= given;
    this.#budget.refund(given);
  }

  /** Counts `bytes` of the body as read. */
  count(bytes: number): void {
    this.#received += bytes;
  }

  /** Gives back everything charged: the request has been answered. Later charges are refused. */
  close(): void {
    this.#closed = true;
    this.refund(this.#charged);
  }
}

const accounts = new WeakMap<object, BodyAccount>();

/** The account of the request `request` (or of its Node message `incoming`), when it has one. */
export function bodyAccountOf(request: Request, incoming?: object): BodyAccount | undefined {
  return (incoming === undefined ? undefined : accounts.get(incoming)) ?? accounts.get(request);
}

/**
 * Middleware opening a body account on `budget` for each request, closed once the rest of the
 * chain has answered (the body, handed to other threads or not, is then no longer the request's).
 */
export function admitBodies(budget: BodyBudget): MiddlewareHandler<{ Bindings: Partial<HttpBindings> }> {
  return async (c, next) => {
    const account = new BodyAccount(budget);
    accounts.set(c.req.raw, account);
    const incoming = c.env?.incoming;
    if (incoming !== undefined) accounts.set(incoming, account);
    try {
      await next();
    } finally {
      account.close();
    }
  };
}
