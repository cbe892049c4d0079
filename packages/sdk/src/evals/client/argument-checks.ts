/**
 * Checks of the evaluation client's arguments that the SDK makes itself, before any request:
 * IDs, page options, input objects and idempotency keys. The service validates the rest of each
 * input (and answers 400, a `SvcApiError`).
 * @module
 */
import { randomUUID } from 'node:crypto';
import { describeValue } from '../../diagnostics/describe-value.js';
import type { PageOptions, RequestOptions } from '../types/common-types.js';
import type { EvalCall } from './eval-transport.js';

/** `value` as a path segment. @throws TypeError unless a nonempty string. */
export function idSegment(name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(
      `${name} must be a nonempty string (an ID from the service); got ${describeValue(value)}`,
    );
  }
  return encodeURIComponent(value);
}

/** `value` unless it is not a plain object. @throws TypeError naming the argument. */
export function requireObject<T>(name: string, value: T): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(`${name} must be an object; got ${describeValue(value)}`);
  }
  return value;
}

/** The query of page options `{ after?, limit? }`. @throws TypeError for a bad option. */
export function pageQuery(page: PageOptions | undefined): Array<[string, string]> {
  if (page === undefined) return [];
  requireObject('page', page);
  const query: Array<[string, string]> = [];
  if (page.after !== undefined) {
    if (typeof page.after !== 'string' || page.after === '') {
      throw new TypeError(
        `page.after must be a nextCursor string from a previous page; got ${describeValue(page.after)}`,
      );
    }
    query.push(['after', page.after]);
  }
  if (page.limit !== undefined) {
    if (!Number.isInteger(page.limit) || page.limit < 1 || page.limit > 100) {
      throw new TypeError(`page.limit must be an integer from 1 to 100; got ${describeValue(page.limit)}`);
    }
    query.push(['limit', String(page.limit)]);
  }
  return query;
}

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** A required idempotency key of an input. @throws TypeError unless 1 to 255 visible ASCII characters. */
export function requireIdempotencyKey(name: string, value: unknown): string {
  if (typeof value === 'string' && KEY_PATTERN.test(value)) return value;
  throw new TypeError(
    `${name} must be 1 to 255 visible ASCII characters (save it before the call and reuse it to retry); got ${describeValue(value)}`,
  );
}

/** The idempotency key of `options`, or a new random one. */
export function optionalIdempotencyKey(options: RequestOptions | undefined): string {
  if (options === undefined) return randomUUID();
  requireObject('options', options);
  return options.idempotencyKey === undefined
    ? randomUUID()
    : requireIdempotencyKey('options.idempotencyKey', options.idempotencyKey);
}

/**
 * The POST of an input that carries its own required `idempotencyKey`: `input` must be an object,
 * and its key (checked) travels in the Idempotency-Key header, not in the body.
 *
 * @throws TypeError when `input` is not an object or its `idempotencyKey` is invalid.
 */
export function keyedPost<T extends { idempotencyKey: string }>(
  operation: string,
  path: string,
  input: T,
): EvalCall {
  requireObject('input', input);
  const { idempotencyKey, ...body } = input;
  return {
    operation,
    method: 'POST',
    path,
    body,
    idempotencyKey: requireIdempotencyKey('input.idempotencyKey', idempotencyKey),
  };
}
