/**
 * Byte transfers of case files over signed links (no `Authorization`): the PUT of an artifact's
 * bytes and the GET of a case file. Never retried here.
 * @module
 */
import { context } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import { SvcApiError } from '../../errors/svc-api-error.js';
import { readCapped } from '../../http/read-capped.js';
import { displayOrigin } from '../../http/service-request.js';
import { Agent, type Dispatcher, request } from '../../http/undici.js';

/** The deadline of one file transfer: the client's timeout, at least a minute. */
export function transferTimeout(timeoutMillis: number): number {
  return Math.max(timeoutMillis, 60_000);
}

let sharedAgent: Agent | undefined;

function agent(): Dispatcher {
  sharedAgent ??= new Agent({ keepAliveTimeout: 4_000 });
  return sharedAgent;
}

function errorCode(bytes: Buffer | undefined): string | undefined {
  try {
    const code = (JSON.parse(bytes?.toString('utf8') ?? '') as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' && /^[a-z][a-z0-9_]{0,63}$/.test(code) ? code : undefined;
  } catch {
    return undefined; // an error body that is not JSON has no code: the status says enough
  }
}

/** The answer of a transfer: its status, error code and (for a GET) body. */
export interface TransferAnswer {
  status: number;
  code: string | undefined;
  body: Buffer | undefined;
}

/** One request to a signed link; rejects with a {@link SvcApiError} only when there is no answer. */
export async function transfer(
  operation: string,
  url: string,
  init: {
    method: 'PUT' | 'GET';
    headers?: Record<string, string>;
    body?: Uint8Array;
    maxBytes: number;
    timeoutMillis: number;
  },
): Promise<TransferAnswer> {
  const signal = AbortSignal.timeout(init.timeoutMillis);
  try {
    return await context.with(suppressTracing(context.active()), async () => {
      const response = await request(url, {
        method: init.method,
        dispatcher: agent(),
        signal,
        headers: init.headers ?? {},
        ...(init.body === undefined ? {} : { body: init.body }),
      });
      const body = await readCapped(response.body, init.maxBytes);
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return { status: response.statusCode, code: ok ? undefined : errorCode(body), body };
    });
  } catch (error) {
    throw new SvcApiError(
      signal.aborted
        ? `${operation}: no answer from ${displayOrigin(url)} within ${init.timeoutMillis} ms.`
        : `${operation}: could not reach ${displayOrigin(url)}; check the network.`,
      { cause: error },
    );
  }
}
