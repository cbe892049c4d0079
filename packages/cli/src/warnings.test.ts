import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { isSqliteExperimentalWarning, suppressSqliteExperimentalWarning } from './warnings.js';

function warning(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

const SQLITE_WARNING = warning(
  'ExperimentalWarning',
  'SQLite is an experimental feature and might change at any time',
);

describe('suppressSqliteExperimentalWarning', () => {
  it('drops the node:sqlite ExperimentalWarning and forwards every other warning', () => {
    const emitter = new EventEmitter();
    const printer = vi.fn();
    emitter.on('warning', printer);

    suppressSqliteExperimentalWarning(emitter);
    expect(emitter.listenerCount('warning')).toBe(1);

    emitter.emit('warning', SQLITE_WARNING);
    expect(printer).not.toHaveBeenCalled();

    const otherExperimental = warning('ExperimentalWarning', 'WASI is an experimental feature');
    const deprecation = warning('DeprecationWarning', 'Buffer() is deprecated');
    const mentionsSqlite = warning('Warning', 'SQLite is an experimental feature, says a library');
    emitter.emit('warning', otherExperimental);
    emitter.emit('warning', deprecation);
    emitter.emit('warning', mentionsSqlite);
    expect(printer.mock.calls).toEqual([[otherExperimental], [deprecation], [mentionsSqlite]]);
    expect(printer.mock.contexts).toEqual([emitter, emitter, emitter]);
  });

  it('leaves listeners added afterwards untouched', () => {
    const emitter = new EventEmitter();
    suppressSqliteExperimentalWarning(emitter);
    const later = vi.fn();
    emitter.on('warning', later);
    emitter.emit('warning', SQLITE_WARNING);
    expect(later).toHaveBeenCalledWith(SQLITE_WARNING);
  });
});

describe('isSqliteExperimentalWarning', () => {
  it('recognises only the ExperimentalWarning about SQLite', () => {
    expect(isSqliteExperimentalWarning(SQLITE_WARNING)).toBe(true);
    expect(isSqliteExperimentalWarning(warning('ExperimentalWarning', 'Fetch is experimental'))).toBe(false);
    expect(isSqliteExperimentalWarning('SQLite is an experimental feature')).toBe(false);
    expect(isSqliteExperimentalWarning(undefined)).toBe(false);
  });
});
