/**
 * Types shared by the evaluation client's methods.
 * @module
 */
import type * as Wire from './wire-types.generated.js';

/** `{ name, slug, description? }`: the identity of a dataset or a scorer. */
export type Identity = Wire.Identity;

/** Page options: `limit` 1 to 100 (default 50), `after` the `nextCursor` of the previous page. */
export interface PageOptions {
  after?: string;
  limit?: number;
}

/** A page of items; `nextCursor` is `null` on the last page. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * Options of a mutation whose input has no `idempotencyKey`. Without one, the client makes a new
 * random key per call; pass your own (saved before the call) to retry a call whose answer was
 * lost.
 */
export interface RequestOptions {
  idempotencyKey?: string;
}

/** An error of an execution or a score: `{ type, message? }`. */
export type ErrorInfo = Wire.ErrorInfo;
