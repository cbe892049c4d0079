import { cpSync } from 'node:fs';
import { defineConfig } from 'tsup';

export default defineConfig({
  // Threads are their own files beside index.js: the common entry and each thread's module.
  entry: {
    index: 'src/index.ts',
    'thread-entry': 'src/store/thread-entry.ts',
    'sqlite-writer-worker': 'src/ingest/sqlite-writer-worker.ts',
    'sqlite-checkpointer-worker': 'src/ingest/sqlite-checkpointer-worker.ts',
    'decoder-loop': 'src/ingest/decoder-loop.ts',
  },
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  // keep `node:` specifiers: `node:sqlite` exists only under that name
  removeNodeProtocol: false,
  // The private package of shared convention tables is bundled in: it is never published.
  noExternal: ['@svc-run/conventions'],
  // The viewer's static script and stylesheet are served as they are, read from `static/` beside
  // the bundle (`src/viewer/viewer-assets.ts`).
  onSuccess: async () => {
    cpSync('src/viewer/static', 'dist/static', { recursive: true });
  },
});
