/**
 * Entry of every thread of the store and of ingest (decoder, writer, checkpoint threads): it loads
 * the thread's module, whose URL is `workerData.module`. From the build that is a `.js` file beside
 * this one. From source (tests) it first teaches Node to resolve the sources' `./x.js` imports to
 * `./x.ts`, which Node then runs by stripping types. Imports nothing relative itself.
 * @module
 */
import { registerHooks } from 'node:module';
import { workerData } from 'node:worker_threads';

if (import.meta.url.endsWith('.ts')) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      try {
        return nextResolve(specifier, context);
      } catch (error) {
        const relative = specifier.startsWith('./') || specifier.startsWith('../');
        if (
          !relative ||
          !specifier.endsWith('.js') ||
          (error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND'
        ) {
          throw error;
        }
        return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
      }
    },
  });
}
await import((workerData as { module: string }).module);
