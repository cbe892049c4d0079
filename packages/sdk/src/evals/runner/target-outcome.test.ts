import { describe, expect, it } from 'vitest';
import {
  completionBody,
  MAX_OUTPUT_JSON_BYTES,
  OUTCOME_SERIALIZATION_ERROR,
  returnedOutcome,
  thrownOutcome,
} from './target-outcome.js';

describe('returnedOutcome', () => {
  it('keeps a JSON return (a present null, false, 0 and "" included) and tells undefined apart', () => {
    for (const value of [null, false, 0, '', 'Paris', [1, { a: 'b' }], { answer: 4, note: undefined }]) {
      expect(returnedOutcome(value, true)).toEqual({
        kind: 'returned',
        output: JSON.parse(JSON.stringify(value)),
      });
    }
    expect(returnedOutcome(undefined, true)).toEqual({ kind: 'returned' });
    expect('output' in returnedOutcome(undefined, true)).toBe(false);
  });

  it('refuses what is not JSON, naming its kind and never its content', () => {
    const cycle: Record<string, unknown> = { secret: 'hidden text' };
    cycle.self = cycle;
    for (const [value, problem] of [
      [10n, 'a bigint'],
      [{ at: new Date(0), secret: 'hidden text' }, 'an object of class Date'],
      [cycle, 'a circular reference'],
      [Number.NaN, 'a non-finite number'],
      [() => 'x', 'a function'],
      [new Array(2), 'an array with holes'],
    ] as const) {
      const outcome = returnedOutcome(value, true);
      expect(outcome).toEqual({ kind: 'unserializable', problem: `it holds ${problem}` });
      expect(JSON.stringify(outcome)).not.toContain('hidden text');
    }
  });

  it('refuses a return that cannot be read (a throwing getter) instead of throwing, naming no content', () => {
    const value = {
      get answer(): string {
        throw new Error('hidden text');
      },
    };
    const outcome = returnedOutcome(value, true);
    expect(outcome).toEqual({ kind: 'unserializable', problem: 'reading it threw Error' });
    expect(JSON.stringify(outcome)).not.toContain('hidden text');
  });

  it('refuses an output over the request limit only when it would be sent', () => {
    const big = 'x'.repeat(MAX_OUTPUT_JSON_BYTES);
    expect(returnedOutcome(big, true)).toEqual({
      kind: 'unserializable',
      problem: `its JSON is ${MAX_OUTPUT_JSON_BYTES + 2} bytes, over the ${MAX_OUTPUT_JSON_BYTES} bytes an execution output may have (the service takes requests of 1 MiB)`,
    });
    expect(returnedOutcome(big, false)).toEqual({ kind: 'returned', output: big });
  });
});

describe('thrownOutcome', () => {
  it("keeps the error's name, and its message only with content persisted", () => {
    expect(thrownOutcome(new RangeError('quota exceeded'), true)).toEqual({
      kind: 'threw',
      error: { type: 'RangeError', message: 'quota exceeded' },
    });
    expect(thrownOutcome(new RangeError('quota exceeded'), false)).toEqual({
      kind: 'threw',
      error: { type: 'RangeError' },
    });
    expect(thrownOutcome('plain string', true)).toEqual({
      kind: 'threw',
      error: { type: 'Error', message: 'plain string' },
    });
    const nameless = Object.assign(new Error(''), { name: '  ' });
    expect(thrownOutcome(nameless, true)).toEqual({ kind: 'threw', error: { type: 'Error' } });
    const long = thrownOutcome(new Error('m'.repeat(10_000)), true);
    expect(long.kind === 'threw' && long.error.message?.length).toBe(4096);
  });
});

describe('thrownOutcome of a value that cannot be read', () => {
  it('keeps a throw of a value without a string form (or with a throwing name) instead of throwing', () => {
    expect(thrownOutcome(Object.create(null), true)).toEqual({ kind: 'threw', error: { type: 'Error' } });
    const badName = new Error('hidden text');
    Object.defineProperty(badName, 'name', {
      get() {
        throw new Error('hidden text');
      },
    });
    const outcome = thrownOutcome(badName, true);
    expect(outcome).toEqual({ kind: 'threw', error: { type: 'Error', message: 'hidden text' } });
  });
});

describe('completionBody', () => {
  const required = { mode: 'required' } as const;
  const omit = { mode: 'omit', reason: 'no tracing' } as const;

  it('completes a return as succeeded, with its output only when content is persisted', () => {
    expect(completionBody({ kind: 'returned', output: null }, required, true)).toEqual({
      state: 'succeeded',
      output: null,
      traceEvidence: 'required',
    });
    expect(completionBody({ kind: 'returned', output: 'x' }, omit, false)).toEqual({
      state: 'succeeded',
      traceEvidence: 'omit',
      omissionReason: 'no tracing',
    });
    expect(completionBody({ kind: 'returned' }, required, true)).toEqual({
      state: 'succeeded',
      traceEvidence: 'required',
    });
  });

  it('completes a throw, and a return that is not JSON, as error', () => {
    expect(completionBody({ kind: 'threw', error: { type: 'TypeError' } }, required, true)).toEqual({
      state: 'error',
      error: { type: 'TypeError' },
      traceEvidence: 'required',
    });
    const body = completionBody({ kind: 'unserializable', problem: 'it holds a bigint' }, required, false);
    expect(body).toMatchObject({ state: 'error', error: { type: OUTCOME_SERIALIZATION_ERROR } });
    expect(body.error?.message).toContain('cannot be saved as JSON: it holds a bigint');
    expect(body).not.toHaveProperty('output');
  });
});
