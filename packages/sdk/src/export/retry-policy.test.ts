import { describe, expect, it } from 'vitest';
import {
  isRetryableStatus,
  MAX_RETRY_AFTER_MILLIS,
  parseRetryAfter,
  retryDelayMillis,
} from './retry-policy.js';

describe('retry policy', () => {
  it('retries 429, 502, 503 and 504 only', () => {
    expect([429, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 413, 500, 501].some(isRetryableStatus)).toBe(false);
  });

  it('honours Retry-After in seconds or as an HTTP date, capped at 60 s', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(retryDelayMillis(1, '7', now)).toBe(7_000);
    expect(retryDelayMillis(1, '3600', now)).toBe(MAX_RETRY_AFTER_MILLIS);
  });

  it('backs off exponentially with ±20% jitter, up to 5 s', () => {
    for (let i = 0; i < 50; i++) {
      const first = retryDelayMillis(1);
      expect(first).toBeGreaterThanOrEqual(800);
      expect(first).toBeLessThanOrEqual(1_200);
      expect(retryDelayMillis(10)).toBeLessThanOrEqual(6_000);
    }
  });
});
