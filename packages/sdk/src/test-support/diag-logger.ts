/**
 * Test support: a stub OpenTelemetry `diag` logger that keeps what the SDK logs, as an application
 * that calls `diag.setLogger` would receive it. Not part of the package's public API.
 * @module
 */
import { type DiagLogger, DiagLogLevel, diag } from '@opentelemetry/api';
import { afterEach, beforeEach } from 'vitest';

/** One `diag` call: its level and its arguments joined with newlines. */
export interface DiagEntry {
  level: 'error' | 'warn' | 'info' | 'debug' | 'verbose';
  text: string;
}

/**
 * Sets a stub `diag` logger (level WARN, as applications commonly do) before each test of the
 * calling file and removes it after; returns the entries of the running test.
 */
export function useDiagLogger(): DiagEntry[] {
  const entries: DiagEntry[] = [];
  const keep =
    (level: DiagEntry['level']) =>
    (...args: unknown[]) => {
      entries.push({ level, text: args.map(String).join('\n') });
    };
  const logger: DiagLogger = {
    error: keep('error'),
    warn: keep('warn'),
    info: keep('info'),
    debug: keep('debug'),
    verbose: keep('verbose'),
  };
  beforeEach(() => {
    entries.length = 0;
    diag.setLogger(logger, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
  });
  afterEach(() => {
    diag.disable();
  });
  return entries;
}
