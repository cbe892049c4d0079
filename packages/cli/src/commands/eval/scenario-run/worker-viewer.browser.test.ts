/**
 * The viewer's Run button served by a real worker: a scenario's page in Chromium (playwright-core,
 * `scripts/chromium.mjs`) launches a run; `svc eval --worker` (the built executable, a child
 * process) serves it; the run's page then shows each case's verdict with the failed checks' names
 * and each trial's trace. Expectations from issue 17: the worker serves runs launched from the
 * viewer; the run page shows the outcome and links the agent's trace.
 */
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TEST_MILLIS, launchChromium } from '../../../../../../scripts/chromium.mjs';
import { useEvalService, writeEvalEnvFile } from '../../../testing/eval-service.js';
import { publishNotesScenario, SCENARIO_AGENT } from '../../../testing/notes-scenario.js';
import { spawnBuiltCli } from '../../../testing/spawn-built-cli.js';
import { waitWhileRunning } from '../../../testing/wait-while-running.js';

const service = useEvalService({ scenarios: { pollIntervalMillis: 50 } });
let browser: Browser;

beforeAll(async () => {
  browser = (await launchChromium(chromium)) as Browser;
}, BROWSER_TEST_MILLIS);

afterAll(async () => {
  await browser?.close();
});

describe('Run in the viewer, served by svc eval --worker', () => {
  it('launches from the scenario page; the worker serves it; the run page shows the verdicts', {
    timeout: BROWSER_TEST_MILLIS,
  }, async () => {
    const scenario = await publishNotesScenario(
      service.client,
      [
        { key: 'add', inputs: { behavior: 'add', text: 'milk' } },
        { key: 'wrong', inputs: { behavior: 'add', text: 'bread' } },
      ],
      'viewer',
    );
    const cwd = await service.directory('viewer-worker');
    const envFile = await writeEvalEnvFile(cwd, service.server, service.server.keys.readWrite);
    const worker = spawnBuiltCli(['eval', '--worker', SCENARIO_AGENT, '--env-file', envFile], cwd);
    try {
      await waitWhileRunning(worker, 'the worker registered', () => worker.stderr.text.includes(' serves '));
      const page = await (await browser.newContext()).newPage();
      await page.goto(service.server.viewerLoginLink(`/scenarios/${scenario.slug}`));
      await page.getByRole('button', { name: 'Run' }).click();
      await page.waitForURL(/\/scenarios\/runs\/[0-9a-f-]{36}$/);
      const runId = page.url().split('/').at(-1)!;
      await waitWhileRunning(worker, 'the worker served the run', () =>
        worker.stderr.text.includes(`Run ${service.server.origin}/scenarios/runs/${runId}: done`),
      );
      expect((await service.client.getScenarioRun(runId)).complete).toBe(true);
      await page.reload();
      const rows = page.locator('tbody tr');
      expect(await rows.filter({ hasText: 'add' }).first().textContent()).toMatch(/PASS/);
      const wrong = await rows.filter({ hasText: 'wrong' }).first().textContent();
      expect(wrong).toMatch(/FAIL/);
      expect(wrong).toContain('butter noted');
      // Each trial links its trace, which holds the agent's work.
      await page.getByRole('link', { name: 'trace', exact: true }).first().click();
      await page.waitForURL(/\/traces\/[0-9a-f]{32}/);
      expect(await page.locator('body').textContent()).toContain('execute_tool add_note');
    } finally {
      worker.child.kill('SIGINT');
      await worker.exit;
    }
  });
});
