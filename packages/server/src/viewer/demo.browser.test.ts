/**
 * The demo (README command 1 runs `examples/quickstart/demo.mjs` after the build): its printed
 * one-time link, opened in Chromium, shows the trace with the photo in place. The demo runs as a
 * user runs it, in a child process (on a temporary data directory, `SVC_DEMO_DATA`), and is
 * stopped with Ctrl-C (SIGINT) as it says. It uses the built packages (the test command builds
 * them first).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BROWSER_TEST_MILLIS } from '../../../../scripts/chromium.mjs';
import { digestInPage, launchChromium, screenshot, watchPage } from '../test-support/browser.js';

// Chromium on a loaded 2-core machine: waits for what the page reaches, not a time margin.
vi.setConfig({ testTimeout: BROWSER_TEST_MILLIS, hookTimeout: BROWSER_TEST_MILLIS });

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const photo = readFileSync(join(repoRoot, 'examples/quickstart/cat.png'));
const photoSha = createHash('sha256').update(photo).digest('hex');

let demo: ChildProcess;
let output = '';
let exited: Promise<number | null>;
let browser: Browser;
const dataDir = mkdtempSync(join(tmpdir(), 'svc-demo-'));

beforeAll(async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, SVC_DEMO_DATA: dataDir };
  delete env.CI; // as a person runs it: the server stays up for the link
  demo = spawn(process.execPath, [join(repoRoot, 'examples/quickstart/demo.mjs')], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  demo.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  demo.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  exited = new Promise((done) => demo.once('exit', (code) => done(code)));
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  if (demo.exitCode === null) demo.kill('SIGKILL');
  await browser?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Resolves with the first match of `pattern` in the demo's output, or rejects if it exits first. */
function printed(pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((done, fail) => {
    const check = () => {
      const match = pattern.exec(output);
      if (match) {
        clearInterval(timer);
        done(match);
      } else if (demo.exitCode !== null) {
        clearInterval(timer);
        fail(new Error(`the demo exited (${demo.exitCode}) before printing ${pattern}:\n${output}`));
      }
    };
    const timer = setInterval(check, 50);
  });
}

describe('the demo', () => {
  it('prints a one-time link that opens the trace with the photo, and stops on Ctrl-C', async () => {
    const [, link] = await printed(/^ {2}(http:\/\/\S+\/login\/link\?\S+)$/m);
    expect(output).toContain('press Ctrl-C to stop it');
    expect(output).toMatch(/Later: `npx -y pnpm@10\.34\.8 exec svc serve --data \S+` serves the same data/);
    // Short: no build output (the build is its own quiet step), the program's lines and the link.
    expect(output.split('\n').length).toBeLessThan(60);

    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const origin = new URL(link!).origin;
    const watch = watchPage(page, origin);
    await page.goto(link!);
    await page.waitForSelector('.span-detail');
    expect(new URL(page.url()).pathname).toMatch(/^\/traces\/[0-9a-f]{32}$/);
    expect(await page.textContent('h1')).toBe('chat-turn');
    const image = page.locator(`#detail .file[data-sha256="${photoSha}"] img`);
    await expect
      .poll(() => image.evaluate((img) => (img as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    expect(await digestInPage(page, (await image.getAttribute('src'))!)).toBe(photoSha);
    await screenshot(page, 'demo-trace');
    expect(watch.dialogs).toEqual([]);
    expect(watch.outside).toEqual([]);
    await page.close();

    demo.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(output).toContain('Stopped. The data stays in');
  });
});
