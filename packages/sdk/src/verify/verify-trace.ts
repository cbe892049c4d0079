/**
 * `verifyTrace`: polls the trace receipt until the expected spans and fields are stored or the
 * deadline passes. It never flushes and never sends telemetry.
 * @module
 */
import {
  SvcTraceVerificationError,
  type TraceVerificationErrorCode,
} from '../errors/svc-trace-verification-error.js';
import { serviceErrorCode } from '../http/service-error-code.js';
import {
  displayOrigin,
  getServiceJson,
  ServiceRequestError,
  type ServiceResponse,
} from '../http/service-request.js';
import type { ServiceEndpoint } from '../options/svc-options.js';
import { parseTraceReceipt, type TraceReceipt, type TraceVerification } from './trace-receipt.js';
import {
  type ResolvedVerifyTraceOptions,
  resolveVerifyTraceOptions,
  type VerifyTraceOptions,
} from './verify-options.js';

/** Largest receipt body read (64 KiB); a longer one is a malformed response. */
export const MAX_RECEIPT_BYTES = 64 * 1024;

/** First wait between polls; it doubles up to {@link MAX_BACKOFF_MILLIS}. */
const FIRST_BACKOFF_MILLIS = 100;
const MAX_BACKOFF_MILLIS = 1_000;

/** The wait before poll `attempt + 1`: exponential, capped, with jitter (50–100 %). */
function backoffMillis(attempt: number): number {
  const base = Math.min(MAX_BACKOFF_MILLIS, FIRST_BACKOFF_MILLIS * 2 ** Math.min(attempt, 10));
  return base * (0.5 + Math.random() * 0.5);
}

/** `Retry-After` in milliseconds (delta seconds or an HTTP date), or `undefined`. */
function retryAfterMillis(headers: ServiceResponse['headers']): number | undefined {
  const value = headers['retry-after'];
  if (typeof value !== 'string') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value.trim()) * 1_000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function isVerified(receipt: TraceReceipt, options: ResolvedVerifyTraceOptions): boolean {
  const matched = new Set(receipt.matchedSpanIds);
  return (
    receipt.missingSpanIds.length === 0 &&
    options.expectedSpanIds.every((id) => matched.has(id)) &&
    options.requiredFields.every((field) => receipt.fields[field] === true)
  );
}

function fail(
  code: TraceVerificationErrorCode,
  message: string,
  extra: { status?: number; cause?: unknown } = {},
): SvcTraceVerificationError {
  return new SvcTraceVerificationError(`Trace verification failed: ${message}`, { code, ...extra });
}

/** The error for a status that is neither 200 nor retried. */
function statusFailure(origin: string, status: number, json: unknown): SvcTraceVerificationError {
  if (status >= 300 && status < 400) {
    return fail(
      'redirect',
      `the service at ${origin} answered with a redirect (HTTP ${status}), which is not followed; set baseUrl to the service origin itself.`,
      { status },
    );
  }
  if (status === 401) {
    return fail(
      'unauthorized',
      `the service at ${origin} rejected the API key (HTTP 401): the key is wrong, revoked, or not a key of this project; check apiKey, and set baseUrl to the service origin only.`,
      { status },
    );
  }
  if (status === 403) {
    return fail(
      'forbidden',
      `the service at ${origin} refused the API key (HTTP 403): use a Tracing, Read, or Read and write key, and set baseUrl to the service origin only.`,
      { status },
    );
  }
  if (status === 404 && serviceErrorCode(json) !== 'not_found') {
    return fail(
      'unsupported_endpoint',
      `${origin} does not serve trace receipts (HTTP 404 without the service's error body); check baseUrl.`,
      { status },
    );
  }
  return fail('http_error', `the service at ${origin} answered the receipt request with HTTP ${status}.`, {
    status,
  });
}

/** What one receipt answer means: a receipt to judge, or a wait before polling again. */
type PollOutcome = { receipt: TraceReceipt } | { retryAfterMillis: number | undefined };

function readAnswer(origin: string, response: ServiceResponse, traceId: string): PollOutcome {
  const { status } = response;
  if (status === 200) {
    const receipt = parseTraceReceipt(response.json, traceId);
    if (receipt === undefined) {
      const why = response.tooLarge
        ? `is over ${MAX_RECEIPT_BYTES / 1024} KiB`
        : 'is not JSON or not a receipt of this trace';
      throw fail('malformed_response', `the receipt sent by ${origin} ${why}.`, { status });
    }
    return { receipt };
  }
  if (status === 404 && serviceErrorCode(response.json) === 'not_found')
    return { retryAfterMillis: undefined };
  if (status === 429 || status === 503) return { retryAfterMillis: retryAfterMillis(response.headers) };
  throw statusFailure(origin, status, response.json);
}

/**
 * The time a verification runs on: `now()`, monotonic milliseconds for its deadline, and
 * `sleep(millis)`, the wait between polls. {@link verifyTrace} runs on the real one; tests give
 * their own ({@link verifyTraceWithClock}), so that the deadline passes when the test says, not
 * when a loaded machine gets round to it. Each request's own timeout stays real (at most the time
 * left on this clock).
 */
export interface VerifyClock {
  now(): number;
  sleep(millis: number): Promise<void>;
}

const realClock: VerifyClock = {
  now: () => performance.now(),
  sleep: (millis) => new Promise((resolve) => setTimeout(resolve, millis)),
};

/**
 * Polls `GET /api/v1/traces/{traceId}/receipt` until the trace holds every expected span ID and
 * every required field, or `timeoutMillis` (default 10000) passes. Flush the owning providers
 * first: this never flushes and never sends telemetry.
 *
 * Only "trace not found", 429 and 503 are retried (honouring `Retry-After` within the deadline);
 * a receipt still missing spans or fields is polled again until the deadline. Each request uses
 * `endpoint.timeoutMillis`, never beyond the deadline.
 *
 * @returns `{ verified: true, receipt }`, or at the deadline `{ verified: false, receipt }` with the
 *   latest receipt read (`null` when the trace was never found).
 * @throws TypeError for invalid arguments.
 * @throws {@link SvcTraceVerificationError} for any other failure: a redirect, a rejected key, an
 *   unexpected status, a malformed or oversized receipt, or a connection failure.
 */
export async function verifyTrace(
  endpoint: ServiceEndpoint,
  traceId: string,
  options?: VerifyTraceOptions,
): Promise<TraceVerification> {
  return verifyTraceWithClock(endpoint, traceId, options, realClock);
}

/**
 * {@link verifyTrace} with its deadline and its waits between polls on `clock`. Not part of the
 * package's API: tests use it to pass the deadline themselves.
 */
export async function verifyTraceWithClock(
  endpoint: ServiceEndpoint,
  traceId: string,
  options: VerifyTraceOptions | undefined,
  clock: VerifyClock,
): Promise<TraceVerification> {
  const resolved = resolveVerifyTraceOptions(traceId, options);
  const origin = displayOrigin(endpoint.baseUrl);
  const query = resolved.expectedSpanIds.map((id) => ['expectedSpanId', id] as const);
  const deadline = clock.now() + resolved.timeoutMillis;
  let latest: TraceReceipt | null = null;
  for (let attempt = 0; ; attempt++) {
    const remaining = deadline - clock.now();
    if (remaining <= 0) return { verified: false, receipt: latest };
    const clamped = remaining < endpoint.timeoutMillis;
    const requestTimeout = Math.max(1, Math.ceil(Math.min(endpoint.timeoutMillis, remaining)));
    let response: ServiceResponse;
    try {
      response = await getServiceJson({
        endpoint,
        path: `/api/v1/traces/${resolved.traceId}/receipt`,
        query,
        timeoutMillis: requestTimeout,
        maxBodyBytes: MAX_RECEIPT_BYTES,
      });
    } catch (error) {
      const timedOut = error instanceof ServiceRequestError && error.failure === 'timeout';
      // The overall deadline, not the request's own timeout, cut this request short.
      if (timedOut && clamped) return { verified: false, receipt: latest };
      const reason = timedOut
        ? `did not answer within ${endpoint.timeoutMillis} ms`
        : `could not be reached (${error instanceof ServiceRequestError ? error.reason : 'network error'})`;
      throw fail('connection_failed', `the service at ${origin} ${reason}.`, { cause: error });
    }
    const outcome = readAnswer(origin, response, resolved.traceId);
    let wait = backoffMillis(attempt);
    if ('receipt' in outcome) {
      latest = outcome.receipt;
      if (isVerified(latest, resolved)) return { verified: true, receipt: latest };
    } else if (outcome.retryAfterMillis !== undefined) {
      wait = Math.max(wait, outcome.retryAfterMillis);
    }
    await clock.sleep(Math.min(wait, Math.max(0, deadline - clock.now())));
  }
}
