import { describe, expect, it } from 'vitest';
import type { UploadAnswer } from './upload-http.js';
import { withUploadRetries } from './upload-retry.js';

const noWait = async () => {};

/** Runs a step whose every attempt rejects with `error`. */
function failing(error: unknown) {
  let attempts = 0;
  const outcome = withUploadRetries(
    async (): Promise<UploadAnswer> => {
      attempts++;
      throw error;
    },
    { signal: new AbortController().signal, sleep: noWait },
  );
  return { outcome, attempts: () => attempts };
}

describe('withUploadRetries', () => {
  it('names a system error code of a step that got no answer, also one held by its cause', async () => {
    const reset = failing(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    expect(await reset.outcome).toEqual({ kind: 'no-answer', code: 'ECONNRESET' });
    expect(reset.attempts()).toBe(3);
    const wrapped = failing(new Error('fetch failed', { cause: { code: 'UND_ERR_SOCKET' } }));
    expect(await wrapped.outcome).toEqual({ kind: 'no-answer', code: 'UND_ERR_SOCKET' });
  });

  it('throws a programming error at once (a defect is not a missing answer), and retries the rest', async () => {
    const defect = failing(new TypeError("Cannot read properties of undefined (reading 'length')"));
    await expect(defect.outcome).rejects.toThrow(TypeError);
    expect(defect.attempts()).toBe(1);
    const timeout = failing(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    expect(await timeout.outcome).toEqual({ kind: 'no-answer', code: undefined });
    expect(timeout.attempts()).toBe(3);
  });

  it('never takes other text from the error as its code', async () => {
    const url = 'https://storage.example/upload?signature=c2VjcmV0';
    for (const code of [url, 'Bearer svc_live_0123456789', 42]) {
      const step = failing(Object.assign(new Error(url), { code }));
      expect(await step.outcome).toEqual({ kind: 'no-answer', code: undefined });
    }
  });
});
