/**
 * Lets Node run the packages' TypeScript sources: resolves the sources' relative `./x.js` imports
 * to `./x.ts` (or `./x.tsx`), which Node (22.18+, 24) runs by stripping types; `.tsx` files (the
 * viewer's pages, `hono/jsx`) are compiled by esbuild, since Node strips types but does not
 * compile JSX. Used from source only: by the store's thread entry (`thread-entry.ts`) in tests,
 * and by the repository's `scripts/ts-source-hooks.mjs` (benchmarks, child processes of tests).
 * Imports nothing relative, so it loads before the hook exists.
 * @module
 */
import { readFileSync } from 'node:fs';
import { createRequire, registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

/** esbuild (a dev dependency), loaded on the first `.tsx` file only. */
let esbuild: typeof import('esbuild') | undefined;

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
        try {
          return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
        } catch {
          return nextResolve(`${specifier.slice(0, -3)}.tsx`, context);
        }
      }
    },
    load(url, context, nextLoad) {
      if (!url.startsWith('file:') || !url.endsWith('.tsx')) return nextLoad(url, context);
      esbuild ??= createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
      const path = fileURLToPath(url);
      const { code } = esbuild.transformSync(readFileSync(path, 'utf8'), {
        loader: 'tsx',
        format: 'esm',
        jsx: 'automatic',
        jsxImportSource: 'hono/jsx',
        sourcefile: path,
      });
      return { format: 'module', source: code, shortCircuit: true };
    },
  });
}
