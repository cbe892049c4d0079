/**
 * The OpenTelemetry OTLP exporter retry policy: 429, 502, 503 and 504 answers and network errors
 * are retried with exponential backoff and jitter, at most 5 attempts in all; a `Retry-After`
 * header (seconds or an HTTP date) replaces the backoff, capped at 60 seconds.
 * @module
 */

/** Attempts in all, the first included (as in OpenTelemetry JS). */
export const MAX_EXPORT_ATTEMPTS = 5;
const INITIAL_BACKOFF_MILLIS = 1_000;
const MAX_BACKOFF_MILLIS = 5_000;
const BACKOFF_MULTIPLIER = 1.5;
const JITTER = 0.2;
/** The longest wait a `Retry-After` header can ask for. */
export const MAX_RETRY_AFTER_MILLIS = 60_000;

const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/** Whether an HTTP status is retried. */
export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/** The wait before attempt `attempt + 1` (attempts count from 1), honouring `Retry-After`. */
export function retryDelayMillis(attempt: number, retryAfter?: string | null, now = Date.now()): number {
  const asked = parseRetryAfter(retryAfter, now);
  if (asked !== undefined) return Math.min(asked, MAX_RETRY_AFTER_MILLIS);
  const backoff = Math.min(INITIAL_BACKOFF_MILLIS * BACKOFF_MULTIPLIER ** (attempt - 1), MAX_BACKOFF_MILLIS);
  return Math.round(backoff * (1 - JITTER + Math.random() * 2 * JITTER));
}

/** Milliseconds a `Retry-After` value asks for, or `undefined` when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1_000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
