/**
 * One HTTP exchange of the evaluation client with the registry: JSON in, JSON out, through undici
 * on the SDK's keep-alive pool. Redirects are not followed; answers are read up to 4 MiB (a larger
 * one is refused, never split); mutations carry their idempotency key and are never retried here.
 * Tracing is suppressed so the application's HTTP instrumentation records nothing of the call.
 * @module
 */
import { context } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import { SvcApiError } from '../../errors/svc-api-error.js';
import { readCapped } from '../../http/read-capped.js';
import { displayOrigin, serviceUrl } from '../../http/service-request.js';
import { Agent, type Dispatcher, request } from '../../http/undici.js';
import type { ResolvedEvaluationClientOptions } from './evaluation-client-options.js';

/** The largest evaluation answer read (4 MiB). */
export const MAX_EVAL_RESPONSE_BYTES = 4 * 1024 * 1024;

/** One call of the registry. */
export interface EvalCall {
  /** The client method, for messages (e.g. `addCase`). */
  operation: string;
  method: 'GET' | 'POST';
  /** The path below the origin, IDs already encoded. */
  path: string;
  query?: ReadonlyArray<readonly [string, string]>;
  /** The JSON body of a POST. */
  body?: unknown;
  /** The idempotency key of a POST. */
  idempotencyKey?: string;
}

/** Sends calls to the registry. */
export type EvalTransport = <T>(call: EvalCall) => Promise<T>;

let sharedAgent: Agent | undefined;

function agent(): Dispatcher {
  sharedAgent ??= new Agent({ keepAliveTimeout: 4_000 });
  return sharedAgent;
}

const RETRY_ADVICE = 'A mutation was not retried; retry it with the same idempotency key.';

/** What to do about an HTTP error, by status and the service's code. No server text is used. */
function advice(status: number, code: string | undefined): string {
  switch (code) {
    case 'stale_revision':
      return 'expectedRevision is stale: read the dataset version again and retry with its current revision.';
    case 'frozen':
      return 'the dataset version is frozen and refuses writes: create a new version (fromVersionId) to change its cases.';
    case 'idempotency_key_reused':
      return 'this idempotency key was used before with another request: use a new key for a new request, and the same key only to retry the same request.';
    case 'response_too_large':
      return 'the answer would be larger than 4 MiB: request a smaller page (for example limit 1) and follow nextCursor.';
    case 'budget_exhausted':
      return 'the hosted judge budget has no jobs left.';
    case 'conflict':
      return 'the request conflicts with the current state of the record.';
  }
  if (status === 401) return 'the API key is wrong, revoked, or not a key of this project.';
  if (status === 403) {
    return "the key's preset does not allow this call: registry writes need a Read and write key (project_write); reads need a Read or a Read and write key.";
  }
  if (status === 404) return 'an ID of the request does not exist (or is not of the expected kind).';
  if (status === 409) return 'the request conflicts with the current state of the record.';
  if (status === 413)
    return 'the request body is over 1 MiB, the largest evaluation request: send less per request.';
  if (status === 400 || status === 422)
    return "the request is invalid; check it against the method's input rules.";
  if (status === 429 || status >= 500)
    return `the service is busy or failing; try again later. ${RETRY_ADVICE}`;
  return 'the request was refused.';
}

function errorCode(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const error = (json as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[a-z][a-z0-9_]{0,63}$/.test(code) ? code : undefined;
}

function parseJson(bytes: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(bytes.toString('utf8')) as unknown };
  } catch {
    return { ok: false }; // not JSON: the caller answers with the status alone, never the body
  }
}

function networkReason(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z0-9_]{2,64}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return 'network error';
}

function serializeBody(call: EvalCall): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(call.body ?? {});
  } catch (error) {
    throw new TypeError(
      `The input of ${call.operation} cannot be serialized as JSON (${(error as Error).name}).`,
    );
  }
  if (text === undefined) throw new TypeError(`The input of ${call.operation} cannot be serialized as JSON.`);
  return text;
}

/** A transport bound to validated client options. */
export function createEvalTransport(options: ResolvedEvaluationClientOptions): EvalTransport {
  const origin = displayOrigin(options.baseUrl);
  return async <T>(call: EvalCall): Promise<T> => {
    const url = serviceUrl(options.baseUrl, call.path, call.query);
    const headers: Record<string, string> = {
      authorization: `Bearer ${options.apiKey}`,
      accept: 'application/json',
    };
    let body: string | undefined;
    if (call.method === 'POST') {
      body = serializeBody(call);
      headers['content-type'] = 'application/json';
      if (call.idempotencyKey !== undefined) headers['idempotency-key'] = call.idempotencyKey;
    }
    const mutation = call.method === 'POST';
    const signal = AbortSignal.timeout(options.timeoutMillis);
    let status: number;
    let bytes: Buffer | undefined;
    try {
      ({ status, bytes } = await context.with(suppressTracing(context.active()), async () => {
        const response = await request(url, {
          method: call.method,
          dispatcher: agent(),
          signal,
          headers,
          ...(body === undefined ? {} : { body }),
        });
        const length = response.headers['content-length'];
        if (typeof length === 'string' && /^\d+$/.test(length) && Number(length) > MAX_EVAL_RESPONSE_BYTES) {
          response.body.destroy();
          return { status: response.statusCode, bytes: undefined };
        }
        return {
          status: response.statusCode,
          bytes: await readCapped(response.body, MAX_EVAL_RESPONSE_BYTES),
        };
      }));
    } catch (error) {
      const uncertain = mutation
        ? ` The ${call.operation} request may or may not have been applied. ${RETRY_ADVICE}`
        : '';
      if (signal.aborted) {
        throw new SvcApiError(
          `${call.operation}: no answer from the service at ${origin} within ${options.timeoutMillis} ms.${uncertain}`,
          { cause: error },
        );
      }
      throw new SvcApiError(
        `${call.operation}: could not reach the service at ${origin} (${networkReason(error)}); check baseUrl and the network.${uncertain}`,
        { cause: error },
      );
    }
    if (bytes === undefined) {
      throw new SvcApiError(
        `${call.operation}: the answer of the service at ${origin} is larger than 4 MiB, the largest evaluation response; it is not split or retried. Request a smaller page (for example limit 1) and follow nextCursor.`,
        { status },
      );
    }
    const parsed = bytes.length === 0 ? ({ ok: false } as const) : parseJson(bytes);
    if (status < 200 || status >= 300) {
      const code = parsed.ok ? errorCode(parsed.value) : undefined;
      throw new SvcApiError(
        `${call.operation} was refused by the service at ${origin} (HTTP ${status}${code ? `, ${code}` : ''}): ${advice(status, code)}`,
        { status, ...(code === undefined ? {} : { code }) },
      );
    }
    if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) {
      throw new SvcApiError(
        `${call.operation}: the service at ${origin} sent an answer that is not the expected JSON; check that baseUrl is the service origin.`,
        { status },
      );
    }
    return parsed.value as T;
  };
}
