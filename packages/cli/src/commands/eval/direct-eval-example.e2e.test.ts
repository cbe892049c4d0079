/**
 * `examples/direct-eval` as its README runs it: the demo (the reference server, the eval set and
 * scorer made by `setup.mjs`, then the built `svc eval --set` with the example's agent) on a
 * temporary data directory, with `CI` set so it stops once done. Expectations from the README: one
 * case fails on purpose (exit code 1), naming the failing metric and the scorer's explanation, the
 * two others pass, and the run's link is printed.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const DEMO = fileURLToPath(new URL('../../../../../examples/direct-eval/demo.mjs', import.meta.url));
const dataDirs: string[] = [];

afterAll(async () => {
  await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('examples/direct-eval', () => {
  it('runs as its README says: one failing case, two passing, the run link', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'svc-direct-eval-demo-'));
    dataDirs.push(dataDir);
    const { NODE_OPTIONS: _ignored, ...inherited } = process.env;
    const child = spawn(process.execPath, [DEMO], {
      env: { ...inherited, SVC_DEMO_DATA: dataDir, CI: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      output += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      output += text;
    });
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(output).toContain('Created the eval set policy-summaries: version 1, 3 cases, frozen.');
    expect(output).toMatch(
      /^refund-policy +FAIL +key-terms\/includes: The output includes 1 of the 2 expected texts \(ignoring case\)\.$/m,
    );
    expect(output).toMatch(/^data-retention +PASS$/m);
    expect(output).toMatch(/^support-hours +PASS$/m);
    expect(output).toContain('Totals: 2 passed, 1 failed, 0 errored, 0 pending, of 3');
    expect(output).toMatch(/^Run: http:\/\/127\.0\.0\.1:\d+\/experiments\/[0-9a-f-]{36}$/m);
    expect(code).toBe(1);
  });
});
