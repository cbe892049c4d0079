/**
 * Sends one serialized OTLP export request to a signal URL, with the project key, the per-request
 * timeout, keep-alive connections and the retry policy, with tracing suppressed (the application's
 * HTTP instrumentation records no span of an export). Knows nothing of records: it answers how
 * the exchange ended.
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describeFailure } from '../diagnostics/describe-failure.js';
import { isProgrammingError } from '../diagnostics/programming-error.js';
import { reportFailure } from '../diagnostics/report-failure.js';
import { readCapped } from '../http/read-capped.js';
import { type Dispatcher, request } from '../http/undici.js';
import { untraced } from '../http/untraced.js';
import { isRetryableStatus, MAX_EXPORT_ATTEMPTS, retryDelayMillis } from './retry-policy.js';

/** Largest acknowledgement body read; a longer one is not an OTLP export response. */
const MAX_ACK_BYTES = 1024 * 1024;

/** How an export request ended, after retries. */
export type SendResult =
  | { kind: 'acknowledged'; status: number; body: Uint8Array | undefined }
  | {
      kind: 'failed';
      status?: number;
      cause: 'http' | 'network' | 'timeout' | 'aborted' | 'defect';
      /** A system or undici error code (`network`), or the sanitized defect (`defect`). */
      code?: string;
    };

/** What a sender needs. */
export interface SenderOptions {
  url: string;
  apiKey: string;
  timeoutMillis: number;
  contentType: string;
  dispatcher: Dispatcher;
  /** Aborts the attempt in flight and any wait between attempts (shutdown). */
  signal: AbortSignal;
}

type Attempt = { result: SendResult; retryAfter?: string | null; retry: boolean };

async function attempt(body: Uint8Array, options: SenderOptions): Promise<Attempt> {
  const timeout = AbortSignal.timeout(options.timeoutMillis);
  try {
    const response = await untraced(() =>
      request(options.url, {
        method: 'POST',
        dispatcher: options.dispatcher,
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          'content-type': options.contentType,
          accept: options.contentType,
        },
        body,
        signal: AbortSignal.any([timeout, options.signal]),
      }),
    );
    const { statusCode: status } = response;
    if (status >= 200 && status < 300) {
      return {
        result: { kind: 'acknowledged', status, body: await readCapped(response.body, MAX_ACK_BYTES) },
        retry: false,
      };
    }
    // Discarding the body of a refusal: a connection that fails meanwhile changes no outcome.
    await response.body.dump().catch(() => undefined);
    const retryAfter = response.headers['retry-after'];
    return {
      result: { kind: 'failed', status, cause: 'http' },
      retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
      retry: isRetryableStatus(status),
    };
  } catch (error) {
    if (options.signal.aborted) return { result: { kind: 'failed', cause: 'aborted' }, retry: false };
    if (isProgrammingError(error)) {
      // A defect, not a missing answer: not retried; its cause told on diag and in the issue.
      reportFailure('error', 'an OTLP export request failed unexpectedly', error);
      return { result: { kind: 'failed', cause: 'defect', code: describeFailure(error) }, retry: false };
    }
    const timedOut = timeout.aborted;
    const code = (error as { code?: unknown }).code;
    return {
      result: {
        kind: 'failed',
        cause: timedOut ? 'timeout' : 'network',
        code: typeof code === 'string' ? code : undefined,
      },
      retry: true,
    };
  }
}

/** Sends `body`, retrying per the policy; resolves (never rejects) with how it ended. */
export async function sendWithRetries(body: Uint8Array, options: SenderOptions): Promise<SendResult> {
  for (let attempts = 1; ; attempts++) {
    const outcome = await attempt(body, options);
    if (!outcome.retry || attempts >= MAX_EXPORT_ATTEMPTS) return outcome.result;
    try {
      await sleep(retryDelayMillis(attempts, outcome.retryAfter), undefined, { signal: options.signal });
    } catch {
      // The wait was aborted (shutdown): the records count as failed, `aborted` says why.
      return { kind: 'failed', cause: 'aborted' };
    }
  }
}
