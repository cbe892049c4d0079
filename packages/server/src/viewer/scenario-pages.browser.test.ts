/**
 * The scenario pages in a real browser (Debian's Chromium through playwright-core): a scenario
 * whose texts try to run script, the Run button refused with the reason when no local agent is
 * live, then launching on one and landing on the run's page.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BROWSER_TEST_MILLIS } from '../../../../scripts/chromium.mjs';
import { type Loose, scenarioRequests } from '../scenarios/test-support/scenario-requests.js';
import { supportScenario } from '../scenarios/test-support/support-scenario.js';
import { launchChromium, watchPage } from '../test-support/browser.js';
import { useServer } from '../test-support/server-fixture.js';

vi.setConfig({ testTimeout: BROWSER_TEST_MILLIS, hookTimeout: BROWSER_TEST_MILLIS });

const fx = useServer();
const s = scenarioRequests(fx);
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe('the scenario pages in a browser', () => {
  it('runs nothing a scenario holds, refuses Run without a live agent, then launches on one', async () => {
    const document = supportScenario() as Loose;
    document.name = '<img src=x onerror=alert("name")>Support';
    document.cases[0].inputs = { message: '<script>alert("inputs")</script>' };
    await s.publish(document);
    const context = await browser.newContext();
    const page = await context.newPage();
    const watch = watchPage(page, fx.server.origin);
    await page.goto(fx.server.viewerLoginLink('/scenarios'));
    await page.waitForURL(`${fx.server.origin}/scenarios`);
    await page.getByRole('link', { name: /Support$/ }).click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      '<img src=x onerror=alert("name")>Support',
    );
    await page.getByRole('button', { name: 'Run' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('No local agent is live');
    const agent = (
      await s.api.post<Loose>('/local-agents', { name: 'browser worker', agentFile: 'a.ts', host: 'h' })
    ).body;
    await page.goto(`${fx.server.origin}/scenarios/${document.slug}`);
    await page.getByLabel('Trials per case').fill('3');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.waitForURL(/\/scenarios\/runs\/[0-9a-f-]{36}$/);
    const text = await page.locator('main').textContent();
    expect(text).toContain('3 trials per case');
    expect(text).toContain('launched on browser worker (queued)');
    expect(watch.dialogs).toEqual([]);
    expect(watch.outside).toEqual([]);
    await s.api.post(`/local-agents/${agent.agent.id}/stop`, {});
    await context.close();
  });
});
