/**
 * Types shared by the evaluation client's methods.
 * @module
 */

/** `{ name, slug, description? }`: the identity of a dataset or a scorer. */
export interface Identity {
  /** 1 to 256 characters with non-whitespace content. */
  name: string;
  /** Lowercase letters, digits and single hyphens, 1 to 64 characters; unique per kind. */
  slug: string;
  /** At most 4096 characters. */
  description?: string;
}

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

/** An error of an execution or a score. */
export interface ErrorInfo {
  type: string;
  message?: string;
}
