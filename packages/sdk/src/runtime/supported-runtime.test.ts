import { describe, expect, it } from 'vitest';
import { SvcError } from '../errors/svc-error.js';
import { UnsupportedRuntimeError } from '../errors/unsupported-runtime-error.js';
import { requireSupportedRuntime, unsupportedRuntime } from './supported-runtime.js';

// What runs on an unsupported runtime for real (the built package on Node.js 20, Node.js 22 and
// Bun) is checked by scripts/test-consumer.mjs.
describe('supported runtimes: Node.js 22 (22.19+) or 24+, Bun 1.4+', () => {
  it.each([['22.19.0'], ['22.23.3'], ['24.0.0'], ['24.9.0'], ['26.1.0']])('accepts Node.js %s', (node) => {
    expect(unsupportedRuntime({ node })).toBeUndefined();
  });

  it.each([
    ['1.4.0', '24.3.0'],
    ['1.4.5', '24.3.0'],
    ['1.10.2', '24.3.0'],
    ['2.0.0', '26.0.0'],
  ])('accepts Bun %s (whatever Node.js version it reports: %s)', (bun, node) => {
    expect(unsupportedRuntime({ bun, node })).toBeUndefined();
  });

  it.each([['18.20.8'], ['20.20.2'], ['21.7.3'], ['22.18.0'], ['23.11.1']])(
    'refuses Node.js %s, naming the runtimes supported and the one found',
    (node) => {
      const error = unsupportedRuntime({ node });
      expect(error).toBeInstanceOf(UnsupportedRuntimeError);
      expect(error).toBeInstanceOf(SvcError);
      expect(error).not.toBeInstanceOf(TypeError);
      expect(error?.name).toBe('UnsupportedRuntimeError');
      expect(error?.message).toBe(
        `@svc-run/sdk needs Node.js 22 (22.19 or later) or 24, or Bun 1.4 or later; this process runs Node.js ${node}.`,
      );
      expect(error).toMatchObject({ runtime: 'node', version: node });
      expect(UnsupportedRuntimeError.isInstance(error)).toBe(true);
      expect(SvcError.isInstance(error)).toBe(true);
    },
  );

  it.each([['1.3.9'], ['1.0.0']])('refuses Bun %s, though it reports a supported Node.js version', (bun) => {
    const error = unsupportedRuntime({ bun, node: '24.3.0' });
    expect(error?.message).toBe(
      `@svc-run/sdk needs Node.js 22 (22.19 or later) or 24, or Bun 1.4 or later; this process runs Bun ${bun}.`,
    );
    expect(error).toMatchObject({ runtime: 'bun', version: bun });
  });

  it('refuses a runtime that reports no version', () => {
    expect(unsupportedRuntime({})).toMatchObject({ runtime: 'node', version: 'unknown' });
  });

  it('passes on the runtime running this suite (Node.js 24, Node.js 22 or Bun 1.4)', () => {
    expect(() => requireSupportedRuntime()).not.toThrow();
  });
});
