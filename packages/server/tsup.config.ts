import { defineConfig } from 'tsup';

export default defineConfig({
  // The writer thread's file is its own entry: the store starts it as a worker beside index.js.
  entry: { index: 'src/index.ts', 'sqlite-writer-worker': 'src/store/sqlite-writer-worker.ts' },
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  // keep `node:` specifiers: `node:sqlite` exists only under that name
  removeNodeProtocol: false,
});
