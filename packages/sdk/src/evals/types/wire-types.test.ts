import { readFileSync } from 'node:fs';
import { type RunningServer, startServer } from '@svc-run/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wireTypesSource } from './wire-types-source.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('the SDK’s evaluation wire types', () => {
  it('are what the service’s OpenAPI document gives now (drift check)', async () => {
    const response = await fetch(`${server.origin}/api/v1/openapi.json`, {
      headers: { authorization: `Bearer ${server.keys.read}` },
    });
    expect(response.status).toBe(200);
    const generated = await wireTypesSource(await response.json());
    const committed = readFileSync(new URL('./wire-types.generated.ts', import.meta.url), 'utf8');
    // On a difference: a server schema changed; regenerate after a build with
    // `node_modules/.bin/node scripts/generate-eval-wire-types.mjs`, then fix what no longer type-checks.
    expect(committed).toBe(generated);
  });
});
