import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { emptyExportReport } from '../export/export-report.js';
import type { ExportIssue } from '../options/svc-options.js';
import { SvcConnectionError } from './svc-connection-error.js';
import { SvcError } from './svc-error.js';
import { SvcExportError } from './svc-export-error.js';
import { SvcTraceVerificationError } from './svc-trace-verification-error.js';

const KEY = 'svc_test_0123456789abcdef';

const issue: ExportIssue = {
  sequence: 1,
  signal: 'traces',
  kind: 'rejected',
  count: 2,
  status: 400,
  message: 'the service rejected 2 spans',
};

function brandedForeign(className: string): Error {
  // What an error from a second copy of the package looks like to this copy.
  return Object.assign(new Error('other copy'), {
    [Symbol.for('svc-run.error')]: true,
    [Symbol.for(`svc-run.error.${className}`)]: true,
  });
}

describe('SvcConnectionError', () => {
  it('carries its status, name and brand', () => {
    const cause = new Error('ECONNREFUSED');
    const error = new SvcConnectionError('the service refused the key (HTTP 401)', { status: 401, cause });
    expect(error.message).toBe('the service refused the key (HTTP 401)');
    expect(error.status).toBe(401);
    expect(error.name).toBe('SvcConnectionError');
    expect(error.cause).toBe(cause);
    expect(error).toBeInstanceOf(SvcConnectionError);
    expect(error).toBeInstanceOf(SvcError);
    expect(error).toBeInstanceOf(Error);
    expect(SvcError.isInstance(error)).toBe(true);
    expect(SvcConnectionError.isInstance(error)).toBe(true);
  });

  it('has no status for a failure without an HTTP answer', () => {
    const error = new SvcConnectionError('no answer from the service');
    expect(error.status).toBeUndefined();
    expect('status' in error).toBe(false);
    expect(Object.keys(error)).toEqual(['name']);
  });

  it('recognizes a copy from another bundle and rejects other errors', () => {
    expect(SvcConnectionError.isInstance(brandedForeign('SvcConnectionError'))).toBe(true);
    expect(SvcConnectionError.isInstance(new SvcError('base'))).toBe(false);
    expect(SvcConnectionError.isInstance(new SvcTraceVerificationError('x', { code: 'redirect' }))).toBe(
      false,
    );
    expect(
      SvcConnectionError.isInstance(new SvcExportError('x', { issues: [], report: emptyExportReport() })),
    ).toBe(false);
    expect(SvcConnectionError.isInstance(new Error('plain'))).toBe(false);
    expect(SvcConnectionError.isInstance({ name: 'SvcConnectionError', status: 401 })).toBe(false);
    expect(SvcConnectionError.isInstance(null)).toBe(false);
  });
});

describe('SvcExportError', () => {
  it('carries issues, report, name and brand', () => {
    const report = { ...emptyExportReport(), acceptedSpans: 3, rejectedSpans: 2 };
    const error = new SvcExportError('2 spans were rejected', { issues: [issue], report });
    expect(error.name).toBe('SvcExportError');
    expect(error.issues).toEqual([issue]);
    expect(error.report).toEqual(report);
    expect(error).toBeInstanceOf(SvcExportError);
    expect(error).toBeInstanceOf(SvcError);
    expect(SvcError.isInstance(error)).toBe(true);
    expect(SvcExportError.isInstance(error)).toBe(true);
    expect(Object.keys(error).sort()).toEqual(['issues', 'name', 'report']);
  });

  it('keeps a snapshot: later changes to the transport state do not change it', () => {
    const issues = [{ ...issue }];
    const report = emptyExportReport();
    const error = new SvcExportError('1 span failed', { issues, report });
    issues.push({ ...issue, sequence: 2 });
    issues[0]!.count = 99;
    report.failedSpans = 5;
    expect(error.issues).toEqual([issue]);
    expect(error.report.failedSpans).toBe(0);
    expect(Object.isFrozen(error.issues)).toBe(true);
  });

  it('recognizes a copy from another bundle and rejects other errors', () => {
    expect(SvcExportError.isInstance(brandedForeign('SvcExportError'))).toBe(true);
    expect(SvcExportError.isInstance(new SvcConnectionError('x'))).toBe(false);
    expect(SvcExportError.isInstance(new SvcError('base'))).toBe(false);
    expect(SvcExportError.isInstance(new Error('plain'))).toBe(false);
  });
});

describe('SvcTraceVerificationError', () => {
  it('carries code, status, name and brand', () => {
    const error = new SvcTraceVerificationError('the key may not read receipts (HTTP 403)', {
      code: 'forbidden',
      status: 403,
    });
    expect(error.name).toBe('SvcTraceVerificationError');
    expect(error.code).toBe('forbidden');
    expect(error.status).toBe(403);
    expect(error).toBeInstanceOf(SvcTraceVerificationError);
    expect(error).toBeInstanceOf(SvcError);
    expect(SvcError.isInstance(error)).toBe(true);
    expect(SvcTraceVerificationError.isInstance(error)).toBe(true);
    expect(Object.keys(error).sort()).toEqual(['code', 'name', 'status']);
  });

  it('has no status when the failure had no HTTP answer', () => {
    const error = new SvcTraceVerificationError('no answer', { code: 'connection_failed' });
    expect(error.code).toBe('connection_failed');
    expect('status' in error).toBe(false);
  });

  it('recognizes a copy from another bundle and rejects other errors', () => {
    expect(SvcTraceVerificationError.isInstance(brandedForeign('SvcTraceVerificationError'))).toBe(true);
    expect(SvcTraceVerificationError.isInstance(new SvcConnectionError('x', { status: 403 }))).toBe(false);
    expect(SvcTraceVerificationError.isInstance(new SvcError('base'))).toBe(false);
    expect(SvcTraceVerificationError.isInstance(new Error('plain'))).toBe(false);
  });
});

describe('errors carry only what they are given', () => {
  it('adds no credential: a key held by the caller appears in no message, field or inspection', () => {
    // The classes hold only their documented fields; nothing such as request headers is attached.
    const errors = [
      new SvcConnectionError('the service refused the key (HTTP 401)', { status: 401 }),
      new SvcExportError('2 spans were rejected', { issues: [issue], report: emptyExportReport() }),
      new SvcTraceVerificationError('the service answered with a redirect', {
        code: 'redirect',
        status: 302,
      }),
    ];
    for (const error of errors) {
      expect(error.message).not.toContain(KEY);
      expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(KEY);
      expect(JSON.stringify(error)).not.toContain(KEY);
    }
  });
});
