/**
 * Lets Node run the packages' TypeScript sources: resolves the sources' relative `./x.js` imports
 * to `./x.ts`, which Node (22.18+, 24) runs by stripping types. Used from source only: by the
 * store's thread entry (`thread-entry.ts`) in tests, and by the repository's
 * `scripts/ts-source-hooks.mjs` (benchmarks, child processes of tests). Imports nothing relative,
 * so it loads before the hook exists.
 * @module
 */
import { registerHooks } from 'node:module';

/** Registers the resolve hook (once per thread that runs sources). */
export function resolveTsSources(): void {
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
