import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSource } from './spawn-source.js';
import { waitUntil } from './wait-until.js';

const directory = mkdtempSync(join(tmpdir(), 'svc-source-child-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('spawnSource', () => {
  it('runs TypeScript sources whose imports name ./x.js, without the tests’ NODE_OPTIONS', async () => {
    writeFileSync(join(directory, 'value.ts'), 'export const value: number = 41 + 1;\n');
    writeFileSync(
      join(directory, 'main.ts'),
      "import { value } from './value.js';\nconsole.log(JSON.stringify({ value, options: process.env.NODE_OPTIONS ?? null }));\n",
    );
    const child = spawnSource([join(directory, 'main.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ value: 42, options: null });
  });
});

describe('waitUntil', () => {
  it('returns the first value the condition gives that is not false or undefined', async () => {
    let polls = 0;
    expect(await waitUntil(() => (++polls >= 3 ? `after ${polls}` : false), 'three polls', 1)).toBe(
      'after 3',
    );
    expect(await waitUntil(async () => 0)).toBe(0);
  });
});
