/**
 * In-process requests to the evaluation routes, for the registry's route tests. Not part of the
 * package's public API.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { ApiErrorBody } from '../../http/api-error.js';
import type { ServerFixture } from '../../test-support/server-fixture.js';

/** A well-formed registry ID that no record has. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** The body of an error answer: `{ error: { code, message } }`. */
export type ErrorBody = ApiErrorBody;

/** An answer: status, parsed JSON body and headers. */
export interface EvalAnswer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** Options of one request. */
export interface EvalRequestOptions {
  /** Bearer key; the Read-and-write key when omitted. */
  key?: string;
  /** Idempotency key of a POST; a fresh one when omitted, none when `null`. */
  idempotencyKey?: string | null;
}

/** Request helpers bound to a server fixture. */
export function evalRequests(fx: ServerFixture) {
  async function answer<T>(response: Response): Promise<EvalAnswer<T>> {
    const text = await response.text();
    return {
      status: response.status,
      body: (text === '' ? undefined : JSON.parse(text)) as T,
      headers: response.headers,
    };
  }
  return {
    /** GET `/api/v1/evals${path}`. */
    async get<T = Record<string, unknown>>(
      path: string,
      options: EvalRequestOptions = {},
    ): Promise<EvalAnswer<T>> {
      return answer<T>(
        await fx.request(`/api/v1/evals${path}`, { key: options.key ?? fx.server.keys.readWrite }),
      );
    },
    /** POST JSON to `/api/v1/evals${path}` (a string body is sent as is). */
    async post<T = Record<string, unknown>>(
      path: string,
      body: unknown,
      options: EvalRequestOptions = {},
    ): Promise<EvalAnswer<T>> {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      const idempotencyKey = options.idempotencyKey === undefined ? randomUUID() : options.idempotencyKey;
      if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
      return answer<T>(
        await fx.request(`/api/v1/evals${path}`, {
          method: 'POST',
          key: options.key ?? fx.server.keys.readWrite,
          headers,
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
      );
    },
  };
}

/** A unique slug for a test. */
export function uniqueSlug(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}
