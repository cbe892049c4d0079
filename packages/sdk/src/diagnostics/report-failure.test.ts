/**
 * Failures the SDK keeps from the application go to OpenTelemetry's `diag`, as OpenTelemetry's
 * own processors do: a sanitized line and the stack frames, at the level asked; nothing when no
 * logger is set; and an application logger that throws does not make telemetry throw.
 */
import { DiagLogLevel, diag } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { useDiagLogger } from '../test-support/diag-logger.js';
import { reportFailure } from './report-failure.js';

const entries = useDiagLogger();

describe('reportFailure', () => {
  it('logs a sanitized line and the stack frames at the level asked', () => {
    reportFailure(
      'error',
      'the media scan failed',
      new TypeError("Cannot read properties of undefined (reading 'x')"),
    );
    reportFailure('warn', 'the callback threw', new Error('jane@example.com'), { message: false });
    expect(entries.map((e) => [e.level, e.text.split('\n')[0]])).toEqual([
      ['error', 'svc-run: the media scan failed: TypeError: Cannot read properties of undefined (reading …'],
      ['warn', 'svc-run: the callback threw: Error'],
    ]);
    expect(
      entries[0]!.text
        .split('\n')
        .slice(1)
        .every((line) => line.startsWith('at ')),
    ).toBe(true);
    expect(entries.map((e) => e.text).join('\n')).not.toContain('jane');
  });

  it('does not throw when the application logger throws', () => {
    const boom = () => {
      throw new Error('logger down');
    };
    diag.setLogger(
      { error: boom, warn: boom, info: boom, debug: boom, verbose: boom },
      { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
    );
    expect(() => reportFailure('error', 'x', new Error('y'))).not.toThrow();
    expect(() => reportFailure('warn', 'x', new Error('y'))).not.toThrow();
  });
});
