// The SDK's vitest project as it runs under Bun (`bun --bun vitest run --config` this file; see
// `scripts/test-runtimes.mjs`). The SDK's own config, plus three things only the Bun run needs:
//
// 1. `@svc-run/server` is `reference-server.mjs`: the reference server runs on Node in a child
//    process, since its store needs `node:sqlite` and Node worker threads ("resource-bound checks
//    run on Node only"); the SDK under test runs on Bun and reaches it over HTTP.
// 2. The test files in `NODE_ONLY` are left out: they measure Node itself (V8 heap, `--expose-gc`),
//    run the SDK's TypeScript sources in Node child processes, or give the server an in-process
//    object (the judge's mock model, which cannot cross to the Node child that hosts the server
//    under Bun), and run on Node 22 and 24 only.
// 3. `deps.interopDefault` is off: Bun answers `'__esModule' in namespace` with true for every ES
//    module namespace, so vitest's default interop would replace the namespace of a package that
//    has a default export with that default (zod's `z` and `default` go missing).
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import sdk from '../../packages/sdk/vitest.config.ts';

if (!process.versions.bun) {
  throw new Error(
    'scripts/bun-sdk/vitest.config.mjs is for Bun (bun --bun node_modules/vitest/vitest.mjs ...)',
  );
}

/** SDK test files that need Node-only resources, relative to `packages/sdk`. */
export const NODE_ONLY = [
  'src/export/overload.e2e.test.ts',
  'src/media/upload/upload-memory.e2e.test.ts',
  'src/evals/runner/crash-resume.e2e.test.ts',
  'src/evals/client/judge-methods.e2e.test.ts',
  // Drives Chromium (playwright-core) against the viewer, injects upload faults and removes a
  // stored file in the server's data directory: the server's in-process objects.
  'src/viewer.e2e.test.ts',
];

export default mergeConfig(
  sdk,
  defineConfig({
    root: fileURLToPath(new URL('../../packages/sdk', import.meta.url)),
    resolve: {
      alias: { '@svc-run/server': fileURLToPath(new URL('./reference-server.mjs', import.meta.url)) },
    },
    test: {
      name: 'sdk (bun)',
      exclude: [...configDefaults.exclude, ...NODE_ONLY],
      deps: { interopDefault: false },
    },
  }),
);
