import { describe, expect, it } from 'vitest';
import { OutcomeSerializationError } from '../../errors/outcome-serialization-error.js';
import { UncertainExecutionError } from '../../errors/uncertain-execution-error.js';
import { firstCaseError } from './case-errors.js';

describe('firstCaseError', () => {
  it('is the only error itself', () => {
    const error = new UncertainExecutionError('case a may have completed.', { caseId: 'a' });
    expect(firstCaseError([{ caseId: 'a', externalKey: 'refund-a', error }])).toBe(error);
  });

  it('is a copy of the first error whose message lists the other cases by external key and ID', () => {
    const combined = firstCaseError([
      {
        caseId: 'a',
        externalKey: 'refund-a',
        error: new UncertainExecutionError('case a may have completed.', { caseId: 'a', executionId: 'e-a' }),
      },
      {
        caseId: 'b',
        externalKey: 'refund-b',
        error: new OutcomeSerializationError('case b is not JSON.', { executionId: 'e-b' }),
      },
      {
        caseId: 'c',
        externalKey: 'refund "c"',
        error: new UncertainExecutionError('case c may have completed.', { caseId: 'c' }),
      },
    ]);
    expect(UncertainExecutionError.isInstance(combined)).toBe(true);
    expect(combined).toMatchObject({ caseId: 'a', executionId: 'e-a' });
    expect(combined.message).toBe(
      'case a may have completed. 2 other cases also ended without a clean outcome: "refund-b" (b) OutcomeSerializationError, "refund \\"c\\"" (c) UncertainExecutionError.',
    );
    const serialization = firstCaseError([
      {
        caseId: 'b',
        externalKey: 'b',
        error: new OutcomeSerializationError('case b is not JSON.', { executionId: 'e-b' }),
      },
      ...Array.from({ length: 25 }, (_, n) => ({
        caseId: `u${n}`,
        externalKey: `key-${n}`,
        error: new UncertainExecutionError('x', { caseId: `u${n}` }),
      })),
    ]);
    expect(OutcomeSerializationError.isInstance(serialization)).toBe(true);
    expect(serialization).toMatchObject({ executionId: 'e-b' });
    expect(serialization.message).toMatch(
      /25 other cases .* "key-19" \(u19\) UncertainExecutionError, and 5 more\.$/,
    );
  });

  it('refuses an empty list', () => {
    expect(() => firstCaseError([])).toThrow('no case errors');
  });
});
