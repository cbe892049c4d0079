/**
 * One GET of a JSON resource from the service, shared by the connection check and trace
 * verification. Redirects are not followed, the body is read up to a cap, and tracing is
 * suppressed so an application's HTTP instrumentation records nothing of the call.
 * @module
 */
import { context } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import type { ServiceEndpoint } from '../options/svc-options.js';
import { readCapped } from './read-capped.js';
import { Agent, type Dispatcher, request } from './undici.js';

/** A GET of one service resource. */
export interface ServiceRequest {
  /** Where to send it and with which key. */
  endpoint: ServiceEndpoint;
  /** The path below the origin, starting with `/`, e.g. `/api/v1/projects/current`. */
  path: string;
  /** Query parameters, in order; a name may repeat. */
  query?: ReadonlyArray<readonly [name: string, value: string]>;
  /** Deadline of the whole exchange (headers and body), in milliseconds. */
  timeoutMillis: number;
  /** Largest body read; a longer body is not parsed (`json` is `undefined`, `tooLarge` is true). */
  maxBodyBytes: number;
  /** Cancels the request; it then rejects with the signal's reason (not a `ServiceRequestError`). */
  signal?: AbortSignal;
}

/** The answer to a {@link ServiceRequest}, whatever its status. */
export interface ServiceResponse {
  status: number;
  /** Response headers, names in lowercase. */
  headers: Record<string, string | string[] | undefined>;
  /** The parsed body; `undefined` when empty, not JSON, or over the cap. */
  json: unknown | undefined;
  /** True when the body was longer than `maxBodyBytes` (it was not read to the end). */
  tooLarge: boolean;
}

/** Why a {@link ServiceRequestError} happened. */
export type ServiceRequestFailure = 'timeout' | 'network';

/**
 * No HTTP answer: the connection failed, was reset, or the deadline passed. Internal; callers
 * turn it into their own public error. The message names neither the key nor any body.
 */
export class ServiceRequestError extends Error {
  override readonly name = 'ServiceRequestError';
  /** `timeout` when the deadline passed, else `network`. */
  readonly failure: ServiceRequestFailure;
  /** A short key-free reason for messages: a system error code such as `ECONNREFUSED`, or `timeout`. */
  readonly reason: string;

  constructor(
    failure: ServiceRequestFailure,
    reason: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.failure = failure;
    this.reason = reason;
  }
}

let sharedAgent: Agent | undefined;

/** The SDK's own keep-alive connection pool (idle sockets do not keep the process alive). */
export function serviceAgent(): Dispatcher {
  sharedAgent ??= new Agent({ keepAliveTimeout: 4_000 });
  return sharedAgent;
}

/** `${baseUrl}${path}?query`, with the query encoded. */
export function serviceUrl(
  baseUrl: string,
  path: string,
  query: ReadonlyArray<readonly [string, string]> = [],
): string {
  const base = baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl;
  const search = new URLSearchParams(
    query.map(([name, value]): [string, string] => [name, value]),
  ).toString();
  return `${base}${path}${search === '' ? '' : `?${search}`}`;
}

/** The origin of `baseUrl` for messages: never credentials or a path. */
export function displayOrigin(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    // Options are validated before any request: only a caller's own baseUrl reaches here.
    return 'the configured baseUrl (not a valid URL)';
  }
}

/** A short, key-free reason of a network error, such as `ECONNREFUSED`; never its message. */
export function networkReason(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z0-9_]{2,64}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return error instanceof Error && /^[A-Za-z]{1,64}$/.test(error.name) ? error.name : 'network error';
}

function parseJson(bytes: Buffer): unknown | undefined {
  if (bytes.length === 0) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return undefined; // not JSON: callers answer with the status, never the body
  }
}

/** The `content-length` a response declares, when it is a plain decimal number. */
export function declaredLength(headers: ServiceResponse['headers']): number | undefined {
  const value = headers['content-length'];
  if (typeof value !== 'string' || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

/**
 * GETs a JSON resource of the service with `Authorization: Bearer <apiKey>`. Any HTTP status
 * resolves (a 3xx is returned as is, never followed); no answer rejects with a
 * {@link ServiceRequestError}, and a cancellation by `options.signal` with that signal's reason.
 */
export async function getServiceJson(options: ServiceRequest): Promise<ServiceResponse> {
  const { endpoint, timeoutMillis, maxBodyBytes } = options;
  const url = serviceUrl(endpoint.baseUrl, options.path, options.query);
  const timeout = AbortSignal.timeout(timeoutMillis);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]);
  const origin = displayOrigin(endpoint.baseUrl);
  try {
    // Suppressed so that HTTP instrumentation of the application records no span of this call.
    return await context.with(suppressTracing(context.active()), async () => {
      const response = await request(url, {
        method: 'GET',
        dispatcher: serviceAgent(),
        signal,
        headers: { authorization: `Bearer ${endpoint.apiKey}`, accept: 'application/json' },
      });
      const headers = response.headers as ServiceResponse['headers'];
      const length = declaredLength(headers);
      if (response.statusCode >= 300 && response.statusCode < 400) {
        await response.body.dump();
        return { status: response.statusCode, headers, json: undefined, tooLarge: false };
      }
      if (length !== undefined && length > maxBodyBytes) {
        response.body.destroy();
        return { status: response.statusCode, headers, json: undefined, tooLarge: true };
      }
      const bytes = await readCapped(response.body, maxBodyBytes);
      return {
        status: response.statusCode,
        headers,
        json: bytes === undefined ? undefined : parseJson(bytes),
        tooLarge: bytes === undefined,
      };
    });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (timeout.aborted) {
      throw new ServiceRequestError(
        'timeout',
        'timeout',
        `No answer from ${origin} within ${timeoutMillis} ms.`,
        {
          cause: error,
        },
      );
    }
    const reason = networkReason(error);
    throw new ServiceRequestError('network', reason, `Could not connect to ${origin} (${reason}).`, {
      cause: error,
    });
  }
}
