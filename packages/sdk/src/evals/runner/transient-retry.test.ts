import { describe, expect, it } from 'vitest';
import { SvcApiError } from '../../errors/svc-api-error.js';
import { isTransient, withTransientRetry } from './transient-retry.js';

describe('withTransientRetry', () => {
  it('tries again after no answer, a timeout, 408, 429 and 5xx, at most as many times as there are delays', async () => {
    const failures = [
      new SvcApiError('no answer'),
      new SvcApiError('busy', { status: 503 }),
      new SvcApiError('busy', { status: 429 }),
    ];
    let calls = 0;
    const call = async () => {
      calls += 1;
      const failure = failures.shift();
      if (failure) throw failure;
      return 'done';
    };
    await expect(withTransientRetry(call, [0, 0])).rejects.toThrow('busy');
    expect(calls).toBe(3);
    calls = 0;
    failures.push(new SvcApiError('reset'));
    await expect(withTransientRetry(call, [0, 0])).resolves.toBe('done');
    expect(calls).toBe(2);
  });

  it("never retries a refusal, a conflict or an error that is not the client's", async () => {
    for (const error of [
      new SvcApiError('refused', { status: 400 }),
      new SvcApiError('conflict', { status: 409, code: 'conflict' }),
      new SvcApiError('forbidden', { status: 403 }),
      new TypeError('bad input'),
    ]) {
      let calls = 0;
      await expect(
        withTransientRetry(async () => {
          calls += 1;
          throw error;
        }, [0, 0]),
      ).rejects.toBe(error);
      expect(calls).toBe(1);
    }
    expect(isTransient(new SvcApiError('gateway', { status: 504 }))).toBe(true);
    expect(isTransient(new SvcApiError('timeout', { status: 408 }))).toBe(true);
    expect(isTransient(new SvcApiError('not found', { status: 404 }))).toBe(false);
  });
});
