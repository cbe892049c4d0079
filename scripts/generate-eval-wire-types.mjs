/**
 * Writes `packages/sdk/src/evals/types/wire-types.generated.ts` from the service's OpenAPI
 * document: starts the built server (`packages/server/dist`) on a temporary data directory, reads
 * `/api/v1/openapi.json`, and generates the SDK's evaluation wire shapes from it
 * (`wire-types-source.ts`). Run it after changing an evaluation schema of the server, after a
 * build: `npx -y pnpm@10.34.8 build && node_modules/.bin/node scripts/generate-eval-wire-types.mjs`.
 * @module
 */
import './ts-source-hooks.mjs';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const sdk = new URL('../packages/sdk/', import.meta.url);
const { startServer } = await import(new URL('../packages/server/dist/index.js', import.meta.url).href);
const { wireTypesSource } = await import(new URL('src/evals/types/wire-types-source.ts', sdk).href);

const server = await startServer();
try {
  const response = await fetch(`${server.origin}/api/v1/openapi.json`, {
    headers: { authorization: `Bearer ${server.keys.read}` },
  });
  if (!response.ok) throw new Error(`the OpenAPI document answered HTTP ${response.status}`);
  const target = fileURLToPath(new URL('src/evals/types/wire-types.generated.ts', sdk));
  writeFileSync(target, await wireTypesSource(await response.json()));
  console.log(`wrote ${target}`);
} finally {
  await server.close();
}
