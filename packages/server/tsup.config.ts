import { defineConfig } from 'tsup';

export default defineConfig({
  // Thread entries are their own files: the store starts them as workers beside index.js.
  entry: {
    index: 'src/index.ts',
    'sqlite-writer-worker': 'src/store/sqlite-writer-worker.ts',
    'sqlite-checkpointer-worker': 'src/store/sqlite-checkpointer-worker.ts',
    'decoder-thread': 'src/ingest/decoder-thread.ts',
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
});
