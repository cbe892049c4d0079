import { describe, expect, it } from 'vitest';
import { MediaFetchError } from './media-fetch-error.js';
import { SvcConnectionError } from './svc-connection-error.js';
import { SvcError } from './svc-error.js';

describe('MediaFetchError', () => {
  it('carries reason, status, name and brand', () => {
    const error = new MediaFetchError('Could not read the file: gone', { reason: 'missing', status: 404 });
    expect(error.name).toBe('MediaFetchError');
    expect(error.reason).toBe('missing');
    expect(error.status).toBe(404);
    expect(error).toBeInstanceOf(MediaFetchError);
    expect(error).toBeInstanceOf(SvcError);
    expect(SvcError.isInstance(error)).toBe(true);
    expect(MediaFetchError.isInstance(error)).toBe(true);
    expect(Object.keys(error).sort()).toEqual(['name', 'reason', 'status']);
  });

  it('has no status when the failure had no HTTP answer', () => {
    const cause = new Error('ECONNREFUSED');
    const error = new MediaFetchError('no answer', { reason: 'failed', cause });
    expect('status' in error).toBe(false);
    expect(error.cause).toBe(cause);
  });

  it('recognizes a copy from another bundle and rejects other errors', () => {
    const foreign = Object.assign(new Error('other copy'), {
      [Symbol.for('svc-run.error')]: true,
      [Symbol.for('svc-run.error.MediaFetchError')]: true,
      reason: 'failed',
    });
    expect(MediaFetchError.isInstance(foreign)).toBe(true);
    expect(MediaFetchError.isInstance(new SvcConnectionError('x', { status: 403 }))).toBe(false);
    expect(MediaFetchError.isInstance(new SvcError('base'))).toBe(false);
    expect(MediaFetchError.isInstance({ name: 'MediaFetchError', reason: 'failed' })).toBe(false);
    expect(MediaFetchError.isInstance(undefined)).toBe(false);
  });
});
