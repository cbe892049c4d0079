import { describe, expect, it } from 'vitest';
import { SvcApiError } from './svc-api-error.js';
import { SvcConnectionError } from './svc-connection-error.js';
import { SvcError } from './svc-error.js';

describe('SvcApiError', () => {
  it('carries status, code, name, cause and its brand', () => {
    const cause = new Error('ECONNRESET');
    const error = new SvcApiError('addCase was refused (HTTP 409)', {
      status: 409,
      code: 'stale_revision',
      cause,
    });
    expect(error).toBeInstanceOf(SvcError);
    expect(error.name).toBe('SvcApiError');
    expect(error.status).toBe(409);
    expect(error.code).toBe('stale_revision');
    expect(error.cause).toBe(cause);
    expect(SvcApiError.isInstance(error)).toBe(true);
    expect(SvcError.isInstance(error)).toBe(true);
  });

  it('has no status or code for a connection failure', () => {
    const error = new SvcApiError('could not reach the service');
    expect(error.status).toBeUndefined();
    expect(error.code).toBeUndefined();
    expect('status' in error).toBe(false);
  });

  it('recognizes errors of another copy of the package, and no other SDK error', () => {
    const foreign = Object.assign(new Error('other copy'), {
      [Symbol.for('svc-run.error')]: true,
      [Symbol.for('svc-run.error.SvcApiError')]: true,
    });
    expect(SvcApiError.isInstance(foreign)).toBe(true);
    expect(SvcApiError.isInstance(new SvcConnectionError('x', { status: 401 }))).toBe(false);
    expect(SvcApiError.isInstance(new Error('x'))).toBe(false);
  });
});
