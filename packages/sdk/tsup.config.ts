import { defineConfig } from 'tsup';
import { manifestVersionOnly } from '../../scripts/manifest-version-only.js';

export default defineConfig({
  // One build for every public entry: code splitting puts the core (the client, its transport and
  // their state) in shared chunks, so each subpath uses the same copy.
  entry: {
    index: 'src/index.ts',
    'ai-sdk/index': 'src/ai-sdk/index.ts',
    'evals/index': 'src/evals/index.ts',
    'managed/index': 'src/managed/index.ts',
  },
  splitting: true,
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  dts: true,
  sourcemap: true,
  clean: true,
  // keep `node:` specifiers: `node:sqlite` exists only under that name
  removeNodeProtocol: false,
  // The private packages (shared convention tables, shared file and stream I/O) are bundled in:
  // they are never published.
  noExternal: ['@svc-run/conventions', '@svc-run/io'],
  // `src/version.ts` reads the version from package.json: inline that field only
  esbuildPlugins: [manifestVersionOnly],
});
