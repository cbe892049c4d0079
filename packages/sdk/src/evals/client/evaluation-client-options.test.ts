import { describe, expect, it } from 'vitest';
import { createEvaluationClient } from './evaluation-client.js';

describe('createEvaluationClient options', () => {
  it('applies the defaults and keeps the origin only', () => {
    expect(createEvaluationClient({ apiKey: 'svc_rw_x' }).baseUrl).toBe('https://api.svc.run');
    expect(createEvaluationClient({ apiKey: 'svc_rw_x', baseUrl: 'http://localhost:4318/' }).baseUrl).toBe(
      'http://localhost:4318',
    );
  });

  it.each([
    [undefined, /^options must be an object/],
    [null, /^options must be an object .*got null/],
    [{}, /^apiKey must be a non-empty string; got undefined/],
    [{ apiKey: '' }, /^apiKey must be a non-empty string/],
    [{ apiKey: 'k', baseUrl: 'https://svc.example/api' }, /^baseUrl must be an origin without a path/],
    [{ apiKey: 'k', baseUrl: 'http://svc.example' }, /^baseUrl must use https/],
    [{ apiKey: 'k', baseUrl: 42 }, /^baseUrl must be a URL string/],
    [{ apiKey: 'k', timeoutMillis: 50 }, /^timeoutMillis must be an integer from 100 to 60000; got 50/],
    [{ apiKey: 'k', timeoutMillis: 1.5 }, /^timeoutMillis must be an integer/],
  ])('refuses %j with a TypeError naming the option', (options, message) => {
    expect(() => createEvaluationClient(options as never)).toThrow(TypeError);
    expect(() => createEvaluationClient(options as never)).toThrow(message);
  });

  it('never shows the key in a message', () => {
    const key = 'svc_rw_secretKeyValue';
    expect(() => createEvaluationClient({ apiKey: key, timeoutMillis: 0 })).toThrow(/timeoutMillis/);
    expect(() => createEvaluationClient({ apiKey: key, timeoutMillis: 0 })).not.toThrow(key);
  });
});
