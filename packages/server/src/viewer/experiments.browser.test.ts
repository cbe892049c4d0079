/**
 * The experiment pages in a real browser (Debian's Chromium through playwright-core): the run link
 * `svc eval` prints opens the experiment page after the viewer's login; the cases show with their
 * states, metrics and explanations; a case's output file shows in place (its bytes are the file's);
 * its trace link opens the trace; `/experiments` lists the run; recorded strings that try to run
 * script run nothing and load nothing from elsewhere.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BROWSER_TEST_MILLIS } from '../../../../scripts/chromium.mjs';
import { type RunningServer, startServer } from '../start-server.js';
import { digestInPage, launchChromium, screenshot, watchPage } from '../test-support/browser.js';
import {
  EXPERIMENT_XSS,
  type ExperimentScenario,
  experimentScenario,
} from '../test-support/experiment-fixtures.js';
import { sha256Of } from '../test-support/media-fixtures.js';

// Chromium on a loaded 2-core machine: waits for what the page reaches, not a time margin.
vi.setConfig({ testTimeout: BROWSER_TEST_MILLIS, hookTimeout: BROWSER_TEST_MILLIS });

let server: RunningServer;
let browser: Browser;
let scenario: ExperimentScenario;

beforeAll(async () => {
  server = await startServer();
  scenario = await experimentScenario(server);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

function caseRow(page: Page, key: string) {
  return page.locator(`tr.case[data-case-key="${key.replace(/["\\]/g, '\\$&')}"]`);
}

describe('the experiment pages in Chromium', () => {
  it('opens the run link after logging in, and shows the cases, their scores and files', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const watch = watchPage(page, server.origin);
    const runUrl = `${server.origin}/experiments/${scenario.experimentId}`;

    // The run link, opened without a session: the login form, then back to the run.
    await page.goto(runUrl);
    await page.fill('#key', server.keys.read);
    await page.click('button[type=submit]');
    await page.waitForURL(runUrl);
    await page.waitForSelector('table.cases');
    expect(await page.textContent('h1')).toBe(`${scenario.evalSetSlug} v1`);
    expect(await page.textContent('code.revision')).toBe(EXPERIMENT_XSS.revision);

    const states = await page
      .locator('tr.case')
      .evaluateAll((rows) =>
        rows.map((row) => [row.getAttribute('data-case-key'), row.querySelector('.verdict')?.textContent]),
      );
    expect(states).toEqual([
      ['answers', 'PASS'],
      ['wrong', 'FAIL'],
      ['crashes', 'ERROR'],
      ['judged', 'PENDING'],
      ['running', 'STARTED'],
      ['never', 'NOT RUN'],
      [EXPERIMENT_XSS.key, 'PASS'],
    ]);
    expect(await caseRow(page, 'wrong').locator('.explanation').first().textContent()).toBe(
      EXPERIMENT_XSS.explanation,
    );
    expect(await caseRow(page, 'crashes').locator('.why').textContent()).toBe(
      `CommandFailed: ${EXPERIMENT_XSS.error}`,
    );

    // The output file in place: an image that loaded, whose bytes are the file's.
    const image = caseRow(page, 'answers').locator('td.files img');
    await expect
      .poll(() => image.evaluate((img) => (img as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    expect(await image.getAttribute('alt')).toBe(EXPERIMENT_XSS.fileName);
    expect(await digestInPage(page, (await image.getAttribute('src'))!)).toBe(sha256Of(scenario.chart));

    // The comparison with the baseline.
    expect(await page.locator('section.comparison h2').textContent()).toContain('Compared with');
    expect(await page.locator('section.comparison tr.change.regressed td.name').textContent()).toBe('wrong');
    await screenshot(page, 'experiment');

    // The case's trace link opens its trace.
    await caseRow(page, 'answers').locator('a', { hasText: 'Trace' }).click();
    await page.waitForURL(`${server.origin}/traces/${scenario.answersTraceId}`);
    expect(await page.textContent('h1')).toBe('eval.case');

    // The list, from the top bar: the run first, and its link.
    await page.click('header.top nav a:text("Experiments")');
    await page.waitForURL(`${server.origin}/experiments`);
    const first = page.locator('table.list tbody tr').first();
    expect(await first.locator('td.name a').getAttribute('href')).toBe(
      `/experiments/${scenario.experimentId}`,
    );
    await first.locator('td.name a').click();
    await page.waitForURL(runUrl);

    // Nothing recorded ran or loaded anything, hovering included.
    await caseRow(page, 'crashes').locator('.why').hover();
    await caseRow(page, EXPERIMENT_XSS.key).hover();
    expect(watch.dialogs).toEqual([]);
    expect(watch.outside).toEqual([]);
    await context.close();
  });
});
