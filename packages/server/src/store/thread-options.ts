/**
 * How the store and ingest start their threads.
 * @module
 */
import { type Transferable, Worker } from 'node:worker_threads';

/**
 * `execArgv` of the store's threads: `node:sqlite` warns that it is experimental once per thread
 * that loads it; the service's own threads do not repeat that warning. Other warnings still print.
 */
const THREAD_EXEC_ARGV: readonly string[] = ['--disable-warning=ExperimentalWarning'];

/**
 * The URL of a thread module beside the module at `moduleUrl`: `<name>.ts` when running from
 * source (tests), `<name>.js` from the build, where each thread module is its own file beside
 * index.js.
 */
export function threadModuleUrl(name: string, moduleUrl: string): URL {
  const extension = moduleUrl.endsWith('.ts') ? 'ts' : 'js';
  return new URL(`./${name}.${extension}`, moduleUrl);
}

/**
 * Starts the thread module `name` (beside the module at `moduleUrl`) through the common thread
 * entry, which lets it import the package's other modules from source and from the build alike.
 */
export function startThread(
  name: string,
  moduleUrl: string,
  data: Record<string, unknown>,
  transferList: Transferable[] = [],
): Worker {
  return new Worker(threadModuleUrl('thread-entry', import.meta.url), {
    workerData: { ...data, module: threadModuleUrl(name, moduleUrl).href },
    transferList,
    execArgv: [...THREAD_EXEC_ARGV],
  });
}
