import { describe, expect, it } from 'vitest';
import {
  EXECUTION_TIMEOUT_ERROR,
  INVALID_RESULT_ERROR,
  MAX_OUTPUT_FILES,
  outcomeOfResult,
  outcomeOfThrow,
  outcomeOfTimeout,
} from './target-result.js';

const file = (name: string, data: Uint8Array = new Uint8Array([1])) => ({
  name,
  contentType: 'text/plain',
  data,
});

describe('the outcome of a target result', () => {
  it('keeps a JSON output, usage and files; the outcome defaults to succeeded', () => {
    const data = Buffer.from('report');
    expect(
      outcomeOfResult({
        output: { a: [1, null, 'x'] },
        usage: { inputTokens: 3, costUsd: 0.5 },
        files: [file('r.txt', data)],
      }),
    ).toEqual({
      state: 'succeeded',
      output: { a: [1, null, 'x'] },
      usage: { inputTokens: 3, costUsd: 0.5 },
      files: [{ name: 'r.txt', contentType: 'text/plain', data }],
    });
    expect(outcomeOfResult({})).toEqual({ state: 'succeeded', files: [] });
    expect(outcomeOfResult({ output: null })).toEqual({ state: 'succeeded', output: null, files: [] });
  });

  it('keeps the safe terminal outcome the target reports', () => {
    expect(outcomeOfResult({ outcome: 'error' })).toEqual({
      state: 'error',
      error: { type: 'TargetError' },
      files: [],
    });
    expect(
      outcomeOfResult({
        outcome: 'error',
        error: { type: ' Refused ', message: 'policy' },
        output: 'partial',
      }),
    ).toEqual({
      state: 'error',
      error: { type: 'Refused', message: 'policy' },
      output: 'partial',
      files: [],
    });
    expect(outcomeOfResult({ outcome: 'cancelled' })).toEqual({ state: 'cancelled', files: [] });
  });

  it('saves an output that is not JSON as OutcomeSerializationError, naming the problem, not the content', () => {
    for (const output of [{ n: 1n }, new Map(), [undefined], Number.NaN, { f: () => 1 }]) {
      const planned = outcomeOfResult({ output });
      expect(planned.state).toBe('error');
      expect(planned.error?.type).toBe('OutcomeSerializationError');
      expect(planned).not.toHaveProperty('output');
    }
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(outcomeOfResult({ output: cyclic }).error?.message).toContain('a circular reference');
    const large = outcomeOfResult({ output: 'x'.repeat(1024 * 1024) });
    expect(large.error?.type).toBe('OutcomeSerializationError');
    expect(large.error?.message).not.toContain('xxxx');
  });

  const invalid: Array<[string, unknown, string]> = [
    ['nothing', undefined, 'it returned undefined'],
    ['an array', [], 'it returned an array'],
    ['an unknown field', { outputs: 1 }, 'unknown field "outputs"'],
    ['an unknown outcome', { outcome: 'done' }, 'outcome must be succeeded, error or cancelled'],
    ['an error with succeeded', { error: { type: 'X' } }, 'error is not allowed with the outcome succeeded'],
    ['an error without a type', { outcome: 'error', error: { message: 'm' } }, 'nonblank type'],
    ['negative tokens', { usage: { inputTokens: -1 } }, 'usage.inputTokens must be an integer ≥ 0'],
    ['an unknown usage field', { usage: { tokens: 1 } }, 'usage has an unknown field "tokens"'],
    [
      'an infinite cost',
      { usage: { costUsd: Number.POSITIVE_INFINITY } },
      'usage.costUsd must be a finite number',
    ],
    ['files not an array', { files: {} }, 'files must be an array'],
    [
      'too many files',
      { files: Array.from({ length: MAX_OUTPUT_FILES + 1 }, (_, i) => file(`f${i}`)) },
      'at most 32',
    ],
    ['a path as a file name', { files: [file('../etc/passwd')] }, 'files[0].name must be a file name'],
    ['a repeated file name', { files: [file('a'), file('a')] }, 'files[1].name repeats'],
    [
      'a bad media type',
      { files: [{ ...file('a'), contentType: 'pdf' }] },
      'files[0].contentType must be a media type',
    ],
    ['a string as data', { files: [{ ...file('a'), data: 'aGk=' }] }, 'files[0].data must be a Uint8Array'],
    ['an empty file', { files: [file('a', new Uint8Array(0))] }, 'files[0].data must be 1 byte to 25 MiB'],
  ];

  it.each(invalid)('saves %s as %s', (_what, result, message) => {
    const planned = outcomeOfResult(result);
    expect(planned.state).toBe('error');
    expect(planned.error?.type).toBe(INVALID_RESULT_ERROR);
    expect(planned.error?.message).toContain(message);
    expect(planned.files).toEqual([]);
  });
});

describe('the outcome of a throw or a timeout', () => {
  it('keeps the error name as the type and its message (capped)', () => {
    class BudgetError extends Error {
      override name = 'BudgetError';
    }
    expect(outcomeOfThrow(new BudgetError('no budget'))).toEqual({
      state: 'error',
      error: { type: 'BudgetError', message: 'no budget' },
      files: [],
    });
    expect(outcomeOfThrow('plain string')).toEqual({
      state: 'error',
      error: { type: 'Error', message: 'plain string' },
      files: [],
    });
    expect(outcomeOfThrow(new Error('m'.repeat(10_000))).error?.message).toHaveLength(4096);
  });

  it('saves a timeout as cancelled with the budget in the message', () => {
    expect(outcomeOfTimeout(1500)).toEqual({
      state: 'cancelled',
      error: { type: EXECUTION_TIMEOUT_ERROR, message: expect.stringContaining('1500 ms') },
      files: [],
    });
  });
});
