import { describe, expect, it } from 'vitest';
import { type Loose, scenarioRequests } from '../scenarios/test-support/scenario-requests.js';
import { supportScenario } from '../scenarios/test-support/support-scenario.js';
import { useServer } from '../test-support/server-fixture.js';
import { logIn, viewerGet } from '../test-support/viewer-fixtures.js';

const fx = useServer();
const s = scenarioRequests(fx);

/** A document whose every shown text is markup, to prove it is escaped. */
function markupScenario() {
  const document = supportScenario() as Loose;
  document.name = '<script>alert("name")</script>';
  document.description = '<img src=x onerror=alert(1)>';
  document.cases[0].inputs = { message: '<b>bold</b>' };
  document.world.tools[0].description = '<iframe src="//evil"></iframe>';
  document.grading.checks.push({
    name: 'sealed',
    kind: 'state',
    assert: 'equals',
    pointer: '/goal',
    value: 'SEALED-VIEWER-31b',
  });
  return document;
}

function postRun(
  scenarioId: string,
  cookie: string,
  form: Record<string, string>,
  origin = fx.server.origin,
) {
  return Promise.resolve(
    fx.server.app.request(`${fx.server.origin}/scenarios/${scenarioId}/run`, {
      method: 'POST',
      headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    }),
  );
}

describe('the scenario pages', () => {
  it('need a session: without one, they go to the login page and come back', async () => {
    const res = await viewerGet(fx.server, '/scenarios');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/login?next=%2Fscenarios');
  });

  it('list scenarios and show one (public part only, every text escaped), with the Run button', async () => {
    const document = markupScenario();
    const published = (await s.publish(document)).body as Loose;
    const cookie = await logIn(fx.server);
    const list = await (await viewerGet(fx.server, '/scenarios', cookie)).text();
    expect(list).toContain(`href="/scenarios/${published.scenario.id}"`);
    expect(list).toContain('&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt;');
    const res = await viewerGet(fx.server, `/scenarios/${document.slug}`, cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'nonce-");
    const html = await res.text();
    for (const markup of ['<script>alert', '<img src=x', '<b>bold</b>', '<iframe src'])
      expect(html).not.toContain(markup);
    expect(html).toContain('&lt;b&gt;bold&lt;/b&gt;');
    expect(html).toContain(`action="/scenarios/${published.scenario.id}/run"`);
    expect(html).toContain('No local agent is live');
    for (const sealed of ['SEALED-VIEWER-31b', 'refund recorded', '/refunds'])
      expect(html).not.toContain(sealed);
  });

  it('Run: refused with the reason when no local agent is live; else launched and shown as a run page', async () => {
    const document = supportScenario();
    const published = (await s.publish(document)).body as Loose;
    const cookie = await logIn(fx.server);
    const refused = await postRun(published.scenario.id, cookie, { trials: '2' });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain('No local agent is live');
    const agent = (
      await s.api.post<Loose>('/local-agents', { name: 'desk <worker>', agentFile: 'agent.ts', host: 'desk' })
    ).body;
    const crossSite = await postRun(published.scenario.id, cookie, { trials: '2' }, 'https://evil.example');
    expect(crossSite.status).toBe(403);
    const launched = await postRun(published.scenario.id, cookie, { trials: '2', agentId: agent.agent.id });
    expect(launched.status).toBe(303);
    const location = launched.headers.get('location')!;
    expect(location).toMatch(/^\/scenarios\/runs\/[0-9a-f-]{36}$/);
    const runId = location.split('/').at(-1)!;
    const queued = await (await viewerGet(fx.server, location, cookie)).text();
    expect(queued).toContain('launched on desk &lt;worker&gt; (queued)');
    expect(queued).toContain('http-equiv="refresh"');
    // The worker serves the run: one case passes, one fails by check name, with its trace.
    const start = async (caseKey: string) =>
      (
        await s.api.post<Loose>(`/scenario-runs/${runId}/trials`, {
          caseKey,
          trial: 1,
          traceId: 'ab'.repeat(16),
        })
      ).body;
    const good = await start('refund-shipped');
    await s.seal(good.trial.id, { output: 'Shipped orders cannot be refunded.' });
    const bad = await start('refund-delivered');
    await s.seal(bad.trial.id, { output: 'No.' });
    const html = await (await viewerGet(fx.server, location, cookie)).text();
    expect(html).toContain('<code>refund-shipped</code>');
    expect(html).toMatch(/#1 <span class="badge">PASS<\/span>/);
    expect(html).toContain('failed: refund recorded, one refund, looked up the order, confirms');
    expect(html).toContain(`href="/traces/${'ab'.repeat(16)}"`);
    await s.api.post(`/local-agents/${agent.agent.id}/stop`, {});
  });

  it('answer 404 for an unknown scenario or run', async () => {
    const cookie = await logIn(fx.server);
    expect((await viewerGet(fx.server, '/scenarios/no-such-scenario', cookie)).status).toBe(404);
    expect(
      (await viewerGet(fx.server, '/scenarios/runs/00000000-0000-4000-8000-000000000000', cookie)).status,
    ).toBe(404);
    expect((await viewerGet(fx.server, '/scenarios/runs/not-an-id', cookie)).status).toBe(404);
  });
});
