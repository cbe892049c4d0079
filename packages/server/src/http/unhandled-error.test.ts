import { describe, expect, it } from 'vitest';
import { describeUnhandledError, sanitizeErrorMessage } from './unhandled-error.js';

const KEY = 'svc_rw_Qm9vbS1iYWRhYm9vbS1rZXktb2YtYS10ZXN0LW9ubHk';

function parseError(text: string): Error {
  try {
    JSON.parse(text);
  } catch (error) {
    return error as Error;
  }
  throw new Error('parsed');
}

describe('sanitizeErrorMessage', () => {
  it('keeps a message written by code', () => {
    expect(sanitizeErrorMessage("Cannot read properties of undefined (reading 'bind')")).toBe(
      "Cannot read properties of undefined (reading 'bind')",
    );
    expect(sanitizeErrorMessage('database is locked')).toBe('database is locked');
  });

  it('leaves out what JSON.parse quotes of the text it read', () => {
    const message = parseError('card 4111 1111').message;
    expect(message).toContain('card 4111'); // the platform's message quotes the content…
    expect(sanitizeErrorMessage(message)).not.toMatch(/card|4111/); // …the log does not
  });

  it('leaves out quoted passages, keys and tokens', () => {
    const out = sanitizeErrorMessage(
      `bad value "the user's secret" for \`x\` with 'two words' and ${KEY}, signature ${'ab12'.repeat(16)}`,
    );
    expect(out).toBe('bad value "…" for `…` with \'…\' and [redacted], signature [redacted]');
  });

  it('cuts a long message', () => {
    expect(sanitizeErrorMessage('word '.repeat(200))).toHaveLength(501);
  });
});

describe('describeUnhandledError', () => {
  it('writes the route pattern, the type, the message and the stack, then the causes', () => {
    const cause = new RangeError(`no room for ${KEY}`);
    const error = new TypeError('could not store the record', { cause });
    const text = describeUnhandledError(error, 'POST', '/api/v1/otlp/v1/traces');
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      'svc server: unhandled error in POST /api/v1/otlp/v1/traces: TypeError: could not store the record',
    );
    expect(lines[1]).toMatch(/^ {4}at .*unhandled-error\.test\.ts:\d+:\d+\)?$/);
    expect(text).toContain('\n  caused by: RangeError: no room for [redacted]\n    at ');
    expect(text).not.toContain(KEY);
  });

  it('names a thrown value that is not an Error without writing it', () => {
    expect(describeUnhandledError('my secret prompt', 'GET', '-')).toBe(
      'svc server: unhandled error in GET -: a thrown string (not an Error)',
    );
  });
});
