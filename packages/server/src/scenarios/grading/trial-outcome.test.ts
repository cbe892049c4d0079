import { describe, expect, it } from 'vitest';
import { type CheckResult, passHatK, trialOutcome } from './trial-outcome.js';

const check = (status: CheckResult['status'], required = true): CheckResult => ({
  name: `${status}-${required}`,
  kind: 'state',
  required,
  status,
});

describe('trial outcomes', () => {
  it('passes when every required check passed; optional ones do not count', () => {
    expect(trialOutcome('succeeded', [check('passed'), check('failed', false)])).toBe('passed');
  });

  it('fails on a failed required check, even with others pending', () => {
    expect(trialOutcome('succeeded', [check('pending'), check('failed')])).toBe('failed');
  });

  it('is pending while a required check is graded, errored when one could not be, or when the agent failed', () => {
    expect(trialOutcome('succeeded', [check('passed'), check('pending')])).toBe('pending');
    expect(trialOutcome('succeeded', [check('passed'), check('error')])).toBe('errored');
    expect(trialOutcome('error', [])).toBe('errored');
  });
});

describe('pass^k', () => {
  it('is 1 when all k of k trials passed, else 0', () => {
    expect(passHatK(3, 3, 3)).toBe(1);
    expect(passHatK(2, 3, 3)).toBe(0);
    expect(passHatK(1, 1, 1)).toBe(1);
  });

  it('estimates C(c, k) / C(n, k) over more trials than k, and is null with fewer', () => {
    expect(passHatK(3, 4, 2)).toBeCloseTo(3 / 6);
    expect(passHatK(4, 4, 2)).toBe(1);
    expect(passHatK(2, 2, 3)).toBeNull();
  });
});
