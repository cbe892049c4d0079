/**
 * Options shared by the store's worker threads.
 * @module
 */

/**
 * `execArgv` of the store's threads: `node:sqlite` warns that it is experimental once per thread
 * that loads it; the service's own threads do not repeat that warning. Other warnings still print.
 */
export const THREAD_EXEC_ARGV: readonly string[] = ['--disable-warning=ExperimentalWarning'];

/**
 * The URL of a thread entry file beside the module at `moduleUrl`: `<name>.ts` when running from
 * source (tests), `<name>.js` from the build, where each entry is its own file beside index.js.
 */
export function threadEntryUrl(name: string, moduleUrl: string): URL {
  const extension = moduleUrl.endsWith('.ts') ? 'ts' : 'js';
  return new URL(`./${name}.${extension}`, moduleUrl);
}
