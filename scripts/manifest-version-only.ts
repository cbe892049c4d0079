/**
 * An esbuild plugin for the packages' tsup builds: a module that imports its `package.json`
 * (`import manifest from '../package.json' with { type: 'json' }`) gets only `{ name, version }`,
 * not the whole manifest (scripts, devDependencies, …), inlined into the build. The source keeps
 * reading the real file, so the version has one home: `package.json`.
 * @module
 */
import { readFile } from 'node:fs/promises';
import type { Options } from 'tsup';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

export const manifestVersionOnly: EsbuildPlugin = {
  name: 'manifest-version-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]package\.json$/ }, async ({ path }) => {
      const { name, version } = JSON.parse(await readFile(path, 'utf8')) as { name: string; version: string };
      return { contents: JSON.stringify({ name, version }), loader: 'json' };
    });
  },
};
