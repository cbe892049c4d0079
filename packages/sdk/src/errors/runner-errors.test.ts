import { describe, expect, it } from 'vitest';
import { OutcomeSerializationError } from './outcome-serialization-error.js';
import { SvcApiError } from './svc-api-error.js';
import { SvcError } from './svc-error.js';
import { UncertainExecutionError } from './uncertain-execution-error.js';

function foreign(className: string): Error {
  // What an error from a second copy of the package looks like to this copy.
  return Object.assign(new Error('other copy'), {
    [Symbol.for('svc-run.error')]: true,
    [Symbol.for(`svc-run.error.${className}`)]: true,
  });
}

describe('UncertainExecutionError', () => {
  it('carries caseId, executionId, name, cause and its brand', () => {
    const cause = new Error('killed');
    const error = new UncertainExecutionError('case c-1 may have completed', {
      caseId: 'c-1',
      executionId: 'e-1',
      cause,
    });
    expect(error.message).toBe('case c-1 may have completed');
    expect(error.caseId).toBe('c-1');
    expect(error.executionId).toBe('e-1');
    expect(error.name).toBe('UncertainExecutionError');
    expect(error.cause).toBe(cause);
    expect(error).toBeInstanceOf(SvcError);
    expect(UncertainExecutionError.isInstance(error)).toBe(true);
    expect(SvcError.isInstance(error)).toBe(true);
  });

  it('has no executionId when the service had not started one', () => {
    const error = new UncertainExecutionError('x', { caseId: 'c-2' });
    expect(error.executionId).toBeUndefined();
    expect('executionId' in error).toBe(false);
  });

  it('recognizes a copy from another bundle, and no other error', () => {
    expect(UncertainExecutionError.isInstance(foreign('UncertainExecutionError'))).toBe(true);
    expect(UncertainExecutionError.isInstance(new OutcomeSerializationError('x', { executionId: 'e' }))).toBe(
      false,
    );
    expect(UncertainExecutionError.isInstance(new SvcApiError('x'))).toBe(false);
    expect(UncertainExecutionError.isInstance(new Error('x'))).toBe(false);
  });
});

describe('OutcomeSerializationError', () => {
  it('carries executionId, name and its brand', () => {
    const error = new OutcomeSerializationError('not JSON (a bigint)', { executionId: 'e-9' });
    expect(error.executionId).toBe('e-9');
    expect(error.name).toBe('OutcomeSerializationError');
    expect(error).toBeInstanceOf(SvcError);
    expect(OutcomeSerializationError.isInstance(error)).toBe(true);
  });

  it('recognizes a copy from another bundle, and no other error', () => {
    expect(OutcomeSerializationError.isInstance(foreign('OutcomeSerializationError'))).toBe(true);
    expect(OutcomeSerializationError.isInstance(new UncertainExecutionError('x', { caseId: 'c' }))).toBe(
      false,
    );
    expect(OutcomeSerializationError.isInstance(null)).toBe(false);
  });
});
