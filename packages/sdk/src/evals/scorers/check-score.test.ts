import { describe, expect, it } from 'vitest';
import { checkScore } from './check-score.js';
import type { MetricDefinition } from './scorer-definitions.js';

const METRICS: MetricDefinition[] = [
  { name: 'correct', type: 'boolean' },
  { name: 'similarity', type: 'number', min: 0, max: 1 },
  { name: 'tone', type: 'category', categories: ['warm', 'neutral', 'curt'] },
  { name: 'notes', type: 'text' },
];

const GOOD = [
  { name: 'correct', value: false, passed: false },
  { name: 'similarity', value: 0.25 },
  { name: 'tone', value: 'curt', passed: false },
  { name: 'notes', value: 'Short and wrong.' },
];

function mismatch(rule: string) {
  return {
    status: 'error',
    error: {
      type: 'MetricMismatchError',
      message: `The scorer's metrics do not match the scorer version: ${rule}.`,
    },
  };
}

function invalid(rule: string) {
  return {
    status: 'error',
    error: { type: 'InvalidScoreError', message: `The scorer returned an invalid Score: ${rule}.` },
  };
}

describe('checkScore', () => {
  it('keeps a scored Score whose metrics match, in any order, failed metrics included', () => {
    const returned = {
      status: 'scored',
      metrics: [...GOOD].reverse(),
      explanation: 'Wrong answer.',
      extra: 1,
    };
    expect(checkScore(returned, METRICS)).toEqual({
      status: 'scored',
      metrics: [...GOOD].reverse(),
      explanation: 'Wrong answer.',
    });
  });

  it('accepts evidence instead of an explanation', () => {
    const returned = { status: 'scored', metrics: GOOD, evidence: { matched: [] } };
    expect(checkScore(returned, METRICS)).toEqual({
      status: 'scored',
      metrics: GOOD,
      evidence: { matched: [] },
    });
    expect(checkScore({ status: 'scored', metrics: GOOD, evidence: null }, METRICS)).toEqual({
      status: 'scored',
      metrics: GOOD,
      evidence: null,
    });
  });

  it('keeps error and skipped Scores', () => {
    expect(checkScore({ status: 'error', error: { type: 'Timeout' } }, METRICS)).toEqual({
      status: 'error',
      error: { type: 'Timeout' },
    });
    expect(checkScore({ status: 'error', error: { type: 'Timeout', message: 'slow' } }, METRICS)).toEqual({
      status: 'error',
      error: { type: 'Timeout', message: 'slow' },
    });
    expect(checkScore({ status: 'skipped', explanation: 'No output.' }, METRICS)).toEqual({
      status: 'skipped',
      explanation: 'No output.',
    });
  });

  it('turns metrics that do not match the definitions into MetricMismatchError', () => {
    const without = (name: string) => GOOD.filter((metric) => metric.name !== name);
    const replace = (name: string, value: unknown, passed?: unknown) =>
      GOOD.map((metric) =>
        metric.name === name ? { name, value, ...(passed === undefined ? {} : { passed }) } : metric,
      );
    const scored = (metrics: unknown) => ({ status: 'scored', metrics, explanation: 'x' });

    expect(checkScore(scored(without('notes')), METRICS)).toEqual(mismatch('missing metric "notes"'));
    expect(checkScore(scored(without('notes').slice(1)), METRICS)).toEqual(
      mismatch('missing metric "correct", "notes"'),
    );
    expect(checkScore(scored([...GOOD, { name: 'extra', value: 1 }]), METRICS)).toEqual(
      mismatch('metrics[4].name "extra" is not a metric of the scorer version'),
    );
    expect(checkScore(scored([...GOOD, GOOD[0]]), METRICS)).toEqual(
      mismatch('metric "correct" is returned twice'),
    );
    expect(checkScore(scored(replace('correct', 'yes')), METRICS)).toEqual(
      mismatch('the value of metric "correct" must be a boolean; got a string'),
    );
    expect(checkScore(scored(replace('notes', 3)), METRICS)).toEqual(
      mismatch('the value of metric "notes" must be a string; got a number'),
    );
    expect(checkScore(scored(replace('similarity', 1.5)), METRICS)).toEqual(
      mismatch(
        'the value of metric "similarity" must be a finite number from 0 to 1; got a number outside it',
      ),
    );
    expect(checkScore(scored(replace('similarity', Number.NaN)), METRICS)).toEqual(
      mismatch(
        'the value of metric "similarity" must be a finite number from 0 to 1; got a number outside it',
      ),
    );
    expect(checkScore(scored(replace('similarity', undefined)), METRICS)).toEqual(
      mismatch('the value of metric "similarity" must be a finite number from 0 to 1; got undefined'),
    );
    expect(checkScore(scored(replace('tone', 'rude')), METRICS)).toEqual(
      mismatch('the value of metric "tone" must be one of the categories "warm", "neutral", "curt"'),
    );
    expect(checkScore(scored(replace('correct', true, 'yes')), METRICS)).toEqual(
      mismatch('passed of metric "correct" must be a boolean when set; got "yes"'),
    );
    expect(checkScore(scored('all good'), METRICS)).toEqual(
      mismatch('metrics must be an array; got "all good"'),
    );
    expect(checkScore(scored([null]), METRICS)).toEqual(
      mismatch('metrics[0] must be an object { name, value, passed? }; got null'),
    );
  });

  it('applies one-sided number bounds', () => {
    const atLeast: MetricDefinition[] = [{ name: 'n', type: 'number', min: 1 }];
    const atMost: MetricDefinition[] = [{ name: 'n', type: 'number', max: 1 }];
    const free: MetricDefinition[] = [{ name: 'n', type: 'number' }];
    const with_ = (value: number) => ({
      status: 'scored',
      metrics: [{ name: 'n', value }],
      explanation: 'x',
    });
    expect(checkScore(with_(1e9), atLeast)).toMatchObject({ status: 'scored' });
    expect(checkScore(with_(0), atLeast)).toEqual(
      mismatch('the value of metric "n" must be a finite number of at least 1; got a number outside it'),
    );
    expect(checkScore(with_(-1e9), atMost)).toMatchObject({ status: 'scored' });
    expect(checkScore(with_(2), atMost)).toEqual(
      mismatch('the value of metric "n" must be a finite number of at most 1; got a number outside it'),
    );
    expect(checkScore(with_(Number.POSITIVE_INFINITY), free)).toEqual(
      mismatch('the value of metric "n" must be a finite number; got a number outside it'),
    );
  });

  it('turns other malformed returns into InvalidScoreError', () => {
    expect(checkScore(undefined, METRICS)).toEqual(
      invalid('a Score is an object with a status; got undefined'),
    );
    expect(checkScore(0.7, METRICS)).toEqual(invalid('a Score is an object with a status; got 0.7'));
    expect(checkScore({ status: 'done' }, METRICS)).toEqual(
      invalid('status must be one of scored, error, skipped; got "done"'),
    );
    expect(checkScore({ status: 'scored', metrics: GOOD }, METRICS)).toEqual(
      invalid('a scored Score needs a nonempty explanation or an evidence value'),
    );
    expect(checkScore({ status: 'scored', metrics: GOOD, explanation: '  ' }, METRICS)).toEqual(
      invalid('a scored Score needs a nonempty explanation or an evidence value'),
    );
    expect(checkScore({ status: 'scored', metrics: GOOD, explanation: 7 }, METRICS)).toEqual(
      invalid('explanation must be a string when set; got 7'),
    );
    expect(checkScore({ status: 'scored', metrics: GOOD, evidence: { at: new Date() } }, METRICS)).toEqual(
      invalid('evidence must be a JSON value; it holds an object of class Date'),
    );
    expect(checkScore({ status: 'skipped' }, METRICS)).toEqual(
      invalid('a skipped Score needs a nonempty explanation'),
    );
    expect(checkScore({ status: 'error' }, METRICS)).toEqual(
      invalid('an error Score needs error: { type, message? }; got undefined'),
    );
    expect(checkScore({ status: 'error', error: { type: '' } }, METRICS)).toEqual(
      invalid('error.type must be a nonempty string; got an empty string'),
    );
    expect(checkScore({ status: 'error', error: { type: 'X', message: 1 } }, METRICS)).toEqual(
      invalid('error.message must be a string when set; got 1'),
    );
  });

  it('never throws, even on a value whose fields cannot be read', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('boom');
        },
      },
    );
    expect(checkScore(hostile, METRICS)).toEqual({
      status: 'error',
      error: { type: 'InvalidScoreError', message: 'The scorer returned a value that cannot be read.' },
    });
  });
});
