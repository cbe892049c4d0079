/**
 * What the SDK says of a failure it keeps from the application: the type, and a sanitized first
 * line of the message — no quoted text (V8 quotes what it could not parse or read), no key, no
 * long token, at most 160 characters; only the type where the message may quote content.
 */
import { describe, expect, it } from 'vitest';
import { describeFailure, failureMessage, failureType, stackFrames } from './describe-failure.js';

describe('describeFailure', () => {
  it('names the type and the message of a runtime error', () => {
    expect(describeFailure(new TypeError('Do not know how to serialize a BigInt'))).toBe(
      'TypeError: Do not know how to serialize a BigInt',
    );
    expect(describeFailure(new RangeError('Maximum call stack size exceeded'))).toBe(
      'RangeError: Maximum call stack size exceeded',
    );
  });

  it('leaves out quoted text: what V8 could not parse, the property it could not read', () => {
    let parseError: unknown;
    try {
      JSON.parse('{"email": jane@example.com}');
    } catch (error) {
      parseError = error;
    }
    expect(describeFailure(parseError)).not.toContain('jane');
    expect(describeFailure(parseError)).toMatch(/^SyntaxError: /);
    expect(describeFailure(new TypeError("Cannot read properties of undefined (reading 'secret')"))).toBe(
      'TypeError: Cannot read properties of undefined (reading …',
    );
    expect(failureMessage(new Error('unclosed "quote runs to the end'))).toBe('unclosed …');
    expect(failureMessage(new Error("the service's answer was `odd`"))).toBe("the service's answer was …");
  });

  it('keeps only the first line', () => {
    let circular: unknown;
    const value: Record<string, unknown> = { name: 'jane' };
    value.self = value;
    try {
      JSON.stringify(value);
    } catch (error) {
      circular = error;
    }
    expect(describeFailure(circular)).toMatch(/^TypeError: [^\n]*$/);
    expect(describeFailure(circular)).not.toContain('self');
  });

  it('masks keys, bearer credentials and long tokens', () => {
    const message = failureMessage(
      new Error('refused svc_rw_abc123 with Bearer eyJhbGciOi and 0af7651916cd43dd8448eb211c80319c0af76519'),
    );
    expect(message).toBe('refused … with … and …');
  });

  it('cuts a long message at 160 characters', () => {
    const message = failureMessage(new Error('word '.repeat(100)));
    expect(message).toHaveLength(160);
    expect(message?.endsWith('…')).toBe(true);
  });

  it('gives only the type when the message may quote content', () => {
    expect(describeFailure(new Error('cannot redact jane@example.com'), { message: false })).toBe('Error');
  });

  it('describes values that are not errors by their kind, never their text', () => {
    expect(describeFailure('jane@example.com')).toBe('a thrown string');
    expect(describeFailure(undefined)).toBe('a thrown undefined');
    expect(describeFailure(null)).toBe('a thrown null');
    expect(describeFailure({ message: 'plain object' })).toBe('Object: plain object');
    class ScannerDefect extends Error {}
    expect(failureType(new ScannerDefect('x'))).toBe('Error');
    expect(failureType(Object.assign(new ScannerDefect('x'), { name: 'ScannerDefect' }))).toBe(
      'ScannerDefect',
    );
    expect(failureType(Object.assign(new Error('x'), { name: 'not a <type>' }))).toBe('Error');
  });

  it('survives a hostile error whose getters throw', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('no');
        },
      },
    );
    expect(describeFailure(hostile)).toBe('Error');
    expect(stackFrames(hostile)).toEqual([]);
  });

  it('lists stack frames as code locations only', () => {
    const frames = stackFrames(new TypeError('jane@example.com'));
    expect(frames.length).toBeGreaterThan(0);
    for (const frame of frames) {
      expect(frame).toMatch(/^at /);
      expect(frame).not.toContain('jane');
    }
  });
});
