import { cpSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { manifestVersionOnly } from '../../scripts/manifest-version-only.js';

export default defineConfig({
  // `bin.ts` keeps its `#!/usr/bin/env node` line; tsup marks the output executable.
  entry: ['src/index.ts', 'src/bin.ts'],
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  dts: true,
  sourcemap: true,
  clean: true,
  // a dependency: loaded from node_modules at run time, never bundled
  external: ['@svc-run/server'],
  // The private package of shared file and stream I/O is bundled in: it is never published.
  noExternal: ['@svc-run/io'],
  // keep `node:` specifiers: `node:sqlite` exists only under that name
  removeNodeProtocol: false,
  // `svc --version` reads the version from package.json: inline that field only
  esbuildPlugins: [manifestVersionOnly],
  // The JSON Schemas of `svc eval --json`'s documents, published as
  // `@svc-run/cli/eval-document.schema.json` and `@svc-run/cli/scenario-eval-document.schema.json`.
  onSuccess: async () => {
    cpSync('src/commands/eval/eval-document.schema.json', 'dist/eval-document.schema.json');
    cpSync(
      'src/commands/eval/scenario-run/scenario-eval-document.schema.json',
      'dist/scenario-eval-document.schema.json',
    );
  },
});
