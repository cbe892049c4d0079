import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  dts: true,
  sourcemap: true,
  clean: true,
  // keep `node:` specifiers: `node:sqlite` exists only under that name
  removeNodeProtocol: false,
});
