import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// DESIGN.md ("Server"): layers, top to bottom — `app.ts` and the route table (composed at the top),
// feature folders, then `auth`, `http`, `store`: leaves that import no feature. `faults` (test-only
// fault injection, used by the route guard) is a leaf too.
const SRC = dirname(fileURLToPath(import.meta.url));
const LEAVES = ['auth', 'http', 'store', 'faults'];

function sources(folder: string): string[] {
  return readdirSync(join(SRC, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Every relative module a file imports (static, dynamic, type-only, `declare module`), as `src`-relative paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import|declare module)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map(
    (match) => match[1]!,
  );
  return specifiers.map((specifier) => relative(SRC, resolve(dirname(file), specifier)));
}

describe('server layering', () => {
  it.each(LEAVES)('%s imports only from the leaves, never a feature or the top', (leaf) => {
    const outside = sources(leaf).flatMap((file) =>
      importsOf(file)
        .filter((target) => !LEAVES.includes(target.split('/')[0]!))
        .map((target) => `${relative(SRC, file)} → ${target}`),
    );
    expect(outside).toEqual([]);
  });

  it('finds the imports it checks (the scan is not vacuous)', () => {
    expect(importsOf(join(SRC, 'auth', 'route-guard.ts'))).toEqual(
      expect.arrayContaining(['http/api-error.js', 'auth/key-presets.js']),
    );
    expect(importsOf(join(SRC, 'error-codes.ts'))).toEqual(
      expect.arrayContaining(['http/api-error.js', 'evals/core/eval-error-codes.js']),
    );
  });

  it('no feature imports the top (app, route table, server start, schema)', () => {
    const top = ['app.js', 'route-table.js', 'start-server.js', 'schema-migrations.js', 'index.js'];
    const features = readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !LEAVES.includes(entry.name))
      .map((entry) => entry.name)
      .filter((name) => !['test-support', 'e2e'].includes(name));
    const upward = features.flatMap((feature) =>
      sources(feature).flatMap((file) =>
        importsOf(file)
          .filter((target) => top.includes(target))
          .map((target) => `${relative(SRC, file)} → ${target}`),
      ),
    );
    expect(upward).toEqual([]);
  });
});
