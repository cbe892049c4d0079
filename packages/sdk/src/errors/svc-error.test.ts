import { describe, expect, it } from 'vitest';
import { SvcError } from './svc-error.js';

describe('SvcError', () => {
  it('is recognized through its brand, also from another copy of the class', () => {
    const error = new SvcError('boom', { cause: new Error('inner') });
    expect(SvcError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('SvcError');
    expect(error.cause).toBeInstanceOf(Error);

    // A second copy of the module (as a duplicated bundle would load) uses the same global symbol.
    const foreign = Object.assign(new Error('other copy'), { [Symbol.for('svc-run.error')]: true });
    expect(SvcError.isInstance(foreign)).toBe(true);
  });

  it('rejects values that are not SDK errors', () => {
    expect(SvcError.isInstance(new Error('plain'))).toBe(false);
    expect(SvcError.isInstance(null)).toBe(false);
    expect(SvcError.isInstance('SvcError')).toBe(false);
    expect(SvcError.isInstance({ name: 'SvcError' })).toBe(false);
  });
});
