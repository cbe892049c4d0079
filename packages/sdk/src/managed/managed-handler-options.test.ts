import { describe, expect, it } from 'vitest';
import { createManagedTargetHandler } from './create-managed-target-handler.js';
import { validateManagedHandlerOptions } from './managed-handler-options.js';

const CREDENTIAL = 'svc_machine_secretValueThatMustNeverShow000000000000000';
const valid = {
  machineCredential: CREDENTIAL,
  target: async () => ({ output: null }),
  flushTelemetry: async () => undefined,
};

describe('createManagedTargetHandler options', () => {
  it('applies the defaults: 90000 ms to execute, 30000 ms to finalize, the default origin', () => {
    const resolved = validateManagedHandlerOptions(valid);
    expect(resolved).toMatchObject({
      maxExecutionMillis: 90_000,
      finalizationMillis: 30_000,
      tracer: undefined,
    });
    expect(resolved.baseUrl).toMatch(/^https:\/\//);
    expect(validateManagedHandlerOptions({ ...valid, baseUrl: 'http://127.0.0.1:4318' }).baseUrl).toBe(
      'http://127.0.0.1:4318',
    );
    expect(
      validateManagedHandlerOptions({ ...valid, maxExecutionMillis: 100, finalizationMillis: 30_000 }),
    ).toMatchObject({ maxExecutionMillis: 100, finalizationMillis: 30_000 });
  });

  const bad: Array<[string, unknown, string]> = [
    ['not an object', null, 'options must be an object { machineCredential, target, flushTelemetry'],
    [
      'no credential',
      { ...valid, machineCredential: undefined },
      'machineCredential must be a non-empty string',
    ],
    [
      'an empty credential',
      { ...valid, machineCredential: '' },
      'machineCredential must be a non-empty string',
    ],
    ['a target that is not a function', { ...valid, target: 'agent' }, 'target must be a function'],
    ['no flushTelemetry', { ...valid, flushTelemetry: undefined }, 'flushTelemetry must be a function'],
    ['a tracer without startActiveSpan', { ...valid, tracer: {} }, 'tracer must be an OpenTelemetry Tracer'],
    ['a baseUrl with a path', { ...valid, baseUrl: 'https://svc.example/api' }, 'baseUrl must be an origin'],
    [
      'maxExecutionMillis above 90000',
      { ...valid, maxExecutionMillis: 90_001 },
      'maxExecutionMillis must be an integer from 100 to 90000; got 90001',
    ],
    [
      'maxExecutionMillis not an integer',
      { ...valid, maxExecutionMillis: 1500.5 },
      'maxExecutionMillis must be an integer from 100 to 90000; got 1500.5',
    ],
    [
      'maxExecutionMillis as a string',
      { ...valid, maxExecutionMillis: '5000' },
      'maxExecutionMillis must be an integer from 100 to 90000; got "5000"',
    ],
    [
      'finalizationMillis above 30000',
      { ...valid, finalizationMillis: 30_001 },
      'finalizationMillis must be an integer from 100 to 30000; got 30001',
    ],
    [
      'finalizationMillis below 100',
      { ...valid, finalizationMillis: 0 },
      'finalizationMillis must be an integer from 100 to 30000; got 0',
    ],
    [
      'an unknown option',
      { ...valid, timeoutMillis: 5000 },
      '"timeoutMillis" is not an option of createManagedTargetHandler',
    ],
  ];

  it.each(bad)('refuses %s with a TypeError naming the option and the rule', (_what, options, message) => {
    expect(() => createManagedTargetHandler(options as never)).toThrow(TypeError);
    expect(() => createManagedTargetHandler(options as never)).toThrow(message);
  });

  it('never shows the credential, even a wrong one', () => {
    for (const machineCredential of [42, CREDENTIAL]) {
      try {
        createManagedTargetHandler({ ...valid, machineCredential, target: 1 } as never);
        throw new Error('expected a TypeError');
      } catch (error) {
        expect(error).toBeInstanceOf(TypeError);
        expect((error as Error).message).not.toContain(CREDENTIAL);
      }
    }
  });
});
