/**
 * Options shared by the store's worker threads.
 * @module
 */

/**
 * `execArgv` of the store's threads: `node:sqlite` warns that it is experimental once per thread
 * that loads it; the service's own threads do not repeat that warning. Other warnings still print.
 */
export const THREAD_EXEC_ARGV: readonly string[] = ['--disable-warning=ExperimentalWarning'];
