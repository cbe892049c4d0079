/**
 * The OTLP sender tells a defect from a missing answer: a programming error while sending is not
 * retried as a network failure; it ends the export at once, its sanitized cause in the result
 * (which the export issue quotes) and on OpenTelemetry's `diag`.
 */
import { describe, expect, it } from 'vitest';
import type { Dispatcher } from '../http/undici.js';
import { useDiagLogger } from '../test-support/diag-logger.js';
import { sendWithRetries } from './otlp-http-sender.js';

const diagnostics = useDiagLogger();

describe('sendWithRetries', () => {
  it('ends at the first attempt on a defect, with its cause, instead of retrying it as unreachable', async () => {
    let attempts = 0;
    const broken = {
      dispatch() {
        attempts++;
        throw new TypeError("Cannot read properties of undefined (reading 'origin')");
      },
    } as unknown as Dispatcher;
    const result = await sendWithRetries(new TextEncoder().encode('{}'), {
      url: 'http://127.0.0.1:9/api/v1/otlp/v1/traces',
      apiKey: 'svc_tracing_not_a_real_key',
      timeoutMillis: 60_000,
      contentType: 'application/json',
      dispatcher: broken,
      signal: new AbortController().signal,
    });
    expect(result).toEqual({
      kind: 'failed',
      cause: 'defect',
      code: 'TypeError: Cannot read properties of undefined (reading …',
    });
    expect(attempts).toBe(1);
    expect(diagnostics.map((entry) => [entry.level, entry.text.split('\n')[0]])).toEqual([
      [
        'error',
        'svc-run: an OTLP export request failed unexpectedly: TypeError: Cannot read properties of undefined (reading …',
      ],
    ]);
    expect(diagnostics[0]!.text).not.toContain('svc_tracing');
  });
});
