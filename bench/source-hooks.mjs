/**
 * Lets a benchmark import the packages' TypeScript sources (internal modules that the builds do
 * not export): resolves the sources' `./x.js` imports to `./x.ts`, which Node 24 runs by
 * stripping types. Import this module first.
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
