/**
 * Lets Node run the packages' TypeScript sources: resolves the sources' relative `./x.js` imports
 * to `./x.ts`, which Node (22.18+, 24) runs by stripping types. Benchmarks import it first; tests
 * that start a child process from source pass it with `--import`. (The server's thread entry
 * (`packages/server/src/store/thread-entry.ts`) keeps its own copy: it is shipped code and cannot
 * reach this repository file.)
 * @module
 */
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      const relative = specifier.startsWith('./') || specifier.startsWith('../');
      if (!relative || !specifier.endsWith('.js') || error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
      return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
    }
  },
});
