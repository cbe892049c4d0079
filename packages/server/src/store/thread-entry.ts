/**
 * Entry of every thread of the store and of ingest (decoder, writer, checkpoint threads): it loads
 * the thread's module, whose URL is `workerData.module`. From the build that is a `.js` file beside
 * this one. From source (tests) it first teaches Node to resolve the sources' `./x.js` imports to
 * `./x.ts` (`ts-source-resolve.ts`, loaded by its `.ts` URL: no hook resolves it yet).
 * @module
 */
import { workerData } from 'node:worker_threads';

if (import.meta.url.endsWith('.ts')) {
  const hooks = (await import(new URL('./ts-source-resolve.ts', import.meta.url).href)) as {
    resolveTsSources: () => void;
  };
  hooks.resolveTsSources();
}
await import((workerData as { module: string }).module);
