/**
 * Keeps Node's "SQLite is an experimental feature" warning off the terminal, and only that one.
 * @module
 */

/** The process-like object whose `warning` listeners are filtered. */
export type WarningEmitter = Pick<NodeJS.EventEmitter, 'listeners' | 'removeListener' | 'on'>;

/** Whether `warning` is Node's ExperimentalWarning about `node:sqlite`. */
export function isSqliteExperimentalWarning(warning: unknown): boolean {
  return (
    warning instanceof Error &&
    warning.name === 'ExperimentalWarning' &&
    warning.message.startsWith('SQLite is an experimental feature')
  );
}

/**
 * Replaces the current `warning` listeners of `emitter` (Node's default printer, on `process`)
 * with one that forwards every warning to them except the `node:sqlite` ExperimentalWarning.
 * Listeners added later are not affected. Call it before `node:sqlite` is imported.
 */
export function suppressSqliteExperimentalWarning(emitter: WarningEmitter = process): void {
  const originals = emitter.listeners('warning');
  for (const listener of originals) emitter.removeListener('warning', listener as (warning: Error) => void);
  emitter.on('warning', (warning: Error) => {
    if (isSqliteExperimentalWarning(warning)) return;
    for (const listener of originals) Reflect.apply(listener, emitter, [warning]);
  });
}
