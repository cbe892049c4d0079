import { describe, expect, it } from 'vitest';
import { keyedPost } from './argument-checks.js';

describe('keyedPost', () => {
  it('sends the input without its idempotency key, which goes to the header', () => {
    expect(
      keyedPost('submitResults', '/api/v1/evals/runs/r/results', { idempotencyKey: 'k-1', results: [] }),
    ).toEqual({
      operation: 'submitResults',
      method: 'POST',
      path: '/api/v1/evals/runs/r/results',
      body: { results: [] },
      idempotencyKey: 'k-1',
    });
  });

  it('refuses an input that is not an object, then a missing or invalid key', () => {
    expect(() => keyedPost('createExperiment', '/p', null as never)).toThrow(
      new TypeError('input must be an object; got null'),
    );
    expect(() => keyedPost('createExperiment', '/p', [] as never)).toThrow(
      new TypeError('input must be an object; got an array'),
    );
    expect(() => keyedPost('createExperiment', '/p', {} as never)).toThrow(
      /^input\.idempotencyKey must be 1 to 255 visible ASCII characters .*; got undefined$/,
    );
    expect(() => keyedPost('createExperiment', '/p', { idempotencyKey: 'with space' })).toThrow(
      /^input\.idempotencyKey must be .*; got "with space"$/,
    );
  });
});
