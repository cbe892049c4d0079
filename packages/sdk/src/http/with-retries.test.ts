import { describe, expect, it } from 'vitest';
import { type Attempted, type RetryOptions, withRetries } from './with-retries.js';

/** Options whose waits are recorded, not slept; the clock moves by each wait. */
function recorded<T>(options: Partial<RetryOptions<T>> & Pick<RetryOptions<T>, 'retryable'>) {
  const waits: number[] = [];
  let clock = 1_000;
  const full: RetryOptions<T> = {
    maxAttempts: 5,
    delayMillis: (attempt) => attempt * 100,
    sleep: async (millis) => {
      waits.push(millis);
      clock += millis;
    },
    now: () => clock,
    ...options,
  };
  return { options: full, waits };
}

describe('withRetries', () => {
  it('returns the first outcome that is not retried, waiting as delayMillis says between attempts', async () => {
    const seen: Attempted<number>[] = [];
    const { options, waits } = recorded<number>({
      retryable: (outcome) => outcome.ok && outcome.value < 3,
      delayMillis: (attempt, outcome) => {
        seen.push(outcome);
        return attempt * 10;
      },
    });
    const attempts: number[] = [];
    const value = await withRetries(async (attempt) => {
      attempts.push(attempt);
      return attempt;
    }, options);
    expect(value).toBe(3);
    expect(attempts).toEqual([1, 2, 3]);
    expect(waits).toEqual([10, 20]);
    expect(seen).toEqual([
      { ok: true, value: 1 },
      { ok: true, value: 2 },
    ]);
  });

  it('stops after maxAttempts and answers with the last outcome: its value, or its error thrown', async () => {
    const values = recorded<string>({ retryable: () => true, maxAttempts: 3 });
    let calls = 0;
    expect(await withRetries(async () => `answer ${++calls}`, values.options)).toBe('answer 3');
    expect(values.waits).toEqual([100, 200]);

    const errors = recorded<string>({ retryable: () => true, maxAttempts: 2 });
    calls = 0;
    await expect(
      withRetries(async () => {
        throw new Error(`failure ${++calls}`);
      }, errors.options),
    ).rejects.toThrow('failure 2');
  });

  it('throws an error that is not retried at once', async () => {
    const { options, waits } = recorded<string>({
      retryable: (outcome) => !outcome.ok && !(outcome.error instanceof TypeError),
    });
    let calls = 0;
    await expect(
      withRetries(async () => {
        calls += 1;
        throw new TypeError('a defect');
      }, options),
    ).rejects.toThrow(TypeError);
    expect(calls).toBe(1);
    expect(waits).toEqual([]);
  });

  it('gives up when the wait would end past the deadline', async () => {
    // The clock starts at 1,000; waits of 100, 200, 300 end at 1,100, 1,300, 1,600.
    const { options, waits } = recorded<number>({
      retryable: () => true,
      maxAttempts: Number.POSITIVE_INFINITY,
      deadline: 1_500,
    });
    let calls = 0;
    expect(await withRetries(async () => ++calls, options)).toBe(3);
    expect(waits).toEqual([100, 200]);
  });

  it('answers onAbortedWait when the signal ends a wait, else throws the wait’s rejection', async () => {
    const controller = new AbortController();
    controller.abort();
    const refusing = async (_millis: number, signal: AbortSignal) => {
      signal.throwIfAborted();
    };
    let calls = 0;
    const options: RetryOptions<string> = {
      maxAttempts: 5,
      retryable: () => true,
      delayMillis: () => 1,
      signal: controller.signal,
      sleep: refusing,
    };
    expect(
      await withRetries(async () => `attempt ${++calls}`, { ...options, onAbortedWait: () => 'aborted' }),
    ).toBe('aborted');
    expect(calls).toBe(1);
    await expect(withRetries(async () => 'x', options)).rejects.toMatchObject({ name: 'AbortError' });
  });
});
