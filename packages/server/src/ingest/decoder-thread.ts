/**
 * Entry of a decoder thread. From the build it loads `decoder-loop.js`; from source (tests) it
 * first teaches Node to resolve the sources' `./x.js` imports to `./x.ts`, which Node then runs
 * by stripping types. Imports nothing relative itself.
 * @module
 */
import { registerHooks } from 'node:module';

const fromSource = import.meta.url.endsWith('.ts');
if (fromSource) {
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
await import(fromSource ? './decoder-loop.ts' : './decoder-loop.js');
