/**
 * The viewer's experiment pages, in-process: `/experiments` (newest first, paged) and
 * `/experiments/{id}` (the cases with their state, each scorer's metrics and explanation, the
 * output files in place, the trace links, the revision, the comparison with the baseline),
 * behind the viewer's session; recorded strings escaped. Expectations from issue 16 ("The run in
 * the viewer") and DESIGN ("recorded text is always escaped").
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  EXPERIMENT_XSS,
  type ExperimentScenario,
  experimentScenario,
} from '../test-support/experiment-fixtures.js';
import { sha256Of } from '../test-support/media-fixtures.js';
import { useServer } from '../test-support/server-fixture.js';
import { logIn, postLogin, viewerGet } from '../test-support/viewer-fixtures.js';

const fx = useServer();
let scenario: ExperimentScenario;
let cookie: string;

beforeAll(async () => {
  scenario = await experimentScenario(fx.server);
  cookie = await logIn(fx.server);
}, 120_000);

async function pageOf(path: string): Promise<{ status: number; html: string }> {
  const res = await viewerGet(fx.server, path, cookie);
  return { status: res.status, html: await res.text() };
}

/** The `<tr>` of a case (by its escaped key) in a page. */
function rowOf(html: string, escapedKey: string): string {
  const start = html.indexOf(`data-case-key="${escapedKey}"`);
  expect(start, `row of ${escapedKey}`).toBeGreaterThan(0);
  return html.slice(start, html.indexOf('</tr>', start));
}

describe('the experiment page', () => {
  it('shows each case with its state, metrics and explanation, errors, files in place and trace link', async () => {
    const { status, html } = await pageOf(`/experiments/${scenario.experimentId}`);
    expect(status).toBe(200);
    expect(html).toContain(`<h1>${scenario.evalSetSlug} v1</h1>`);

    const answers = rowOf(html, 'answers');
    expect(answers).toContain('<span class="verdict pass"');
    expect(answers).toContain('includes = true');
    expect(answers).toContain('The output includes the expected text.');
    expect(answers).toContain('approved = true');
    // The output file in place, from the case's trace, and the link to that trace.
    expect(answers).toMatch(
      new RegExp(
        `<img src="/traces/${scenario.answersTraceId}/files/${sha256Of(scenario.chart)}\\?span=[0-9a-f]{16}"`,
      ),
    );
    expect(answers).toContain(`href="/traces/${scenario.answersTraceId}"`);

    const wrong = rowOf(html, 'wrong');
    expect(wrong).toContain('<span class="verdict fail"');
    expect(wrong).toContain('<span class="metric fail" title="did not pass">includes = false</span>');

    const crashes = rowOf(html, 'crashes');
    expect(crashes).toContain('<span class="verdict error"');
    expect(crashes).toContain('CommandFailed: The command exited with code 3.');

    const judged = rowOf(html, 'judged');
    expect(judged).toContain('<span class="verdict pending"');
    expect(judged).toContain('checks pending');

    expect(rowOf(html, 'running')).toContain('<span class="verdict started"');
    expect(rowOf(html, 'never')).toContain('<span class="verdict not-run"');
  });

  it('escapes every recorded string: case keys, explanations, errors, the revision, file names', async () => {
    const { html } = await pageOf(`/experiments/${scenario.experimentId}`);
    for (const text of Object.values(EXPERIMENT_XSS)) expect(html).not.toContain(text);
    expect(html).not.toMatch(/<script>alert|<img src=x|<b onmouseover/);
    expect(html).toContain('&lt;img src=x onerror=alert(&quot;case-key&quot;)&gt;');
    expect(html).toContain(
      '&lt;script&gt;alert(&quot;explanation&quot;)&lt;/script&gt;The output does not include',
    );
    expect(html).toContain('&lt;b onmouseover=alert(&quot;error&quot;)&gt;stderr&lt;/b&gt;');
    expect(html).toContain(
      '<code class="revision">v1.2 &lt;script&gt;alert(&quot;revision&quot;)&lt;/script&gt;</code>',
    );
  });

  it('compares the run with the baseline it recorded: regressions, improvements, new and missing cases, metric deltas', async () => {
    const { html } = await pageOf(`/experiments/${scenario.experimentId}`);
    const section = html.slice(html.indexOf('<section class="comparison">'), html.indexOf('</section>'));
    expect(section).toContain(`href="/experiments/${scenario.baselineId}"`);
    expect(section).toContain('(revision <code>v1.1</code>)');
    for (const count of ['1 regressed', '1 improved', '1 missing', '5 new']) expect(section).toContain(count);
    expect(section).toMatch(
      /<td class="name">wrong<\/td><td><span class="verdict pass"[^>]*>PASS<\/span><\/td><td><span class="verdict fail"[^>]*>FAIL<\/span><\/td><td>regressed<\/td>/,
    );
    expect(section).toMatch(/<td class="name">answers<\/td>.*<td>improved<\/td>/);
    expect(section).toMatch(
      /<td class="name">gone<\/td><td><span class="verdict pass"[^>]*>PASS<\/span><\/td><td>—<\/td><td>missing<\/td>/,
    );
    // includes: 2 of 3 passed before, 3 of 4 scored cases now.
    expect(section).toMatch(
      /<td>[a-z0-9-]+\/includes<\/td><td>pass rate<\/td><td class="num">66\.7%<\/td><td class="num">75%<\/td><td class="num">\+8\.3%<\/td>/,
    );
  });

  it('compares with another experiment given as ?baseline=, and says why it cannot', async () => {
    const self = await pageOf(`/experiments/${scenario.experimentId}?baseline=${scenario.experimentId}`);
    expect(self.html).toContain('The baseline is this experiment.');
    const missing = randomUUID();
    const unknown = await pageOf(`/experiments/${scenario.experimentId}?baseline=${missing}`);
    expect(unknown.html).toContain(`No experiment ${missing} to compare with.`);
    const reverse = await pageOf(`/experiments/${scenario.baselineId}?baseline=${scenario.experimentId}`);
    expect(reverse.html).toContain('5 missing');
    // Without a recorded baseline and no ?baseline=, no comparison.
    const plain = await pageOf(`/experiments/${scenario.baselineId}`);
    expect(plain.html).not.toContain('class="comparison"');
  });

  it('takes the run link through the login page to the experiment page', async () => {
    const runPath = `/experiments/${scenario.experimentId}`;
    const res = await postLogin(fx.server, fx.server.keys.read, { next: runPath });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(runPath);
  });

  it('answers 404 for an unknown or malformed experiment ID, and asks for a login without a session', async () => {
    expect((await pageOf(`/experiments/${randomUUID()}`)).status).toBe(404);
    expect((await pageOf('/experiments/not-an-id')).status).toBe(404);
    const anonymous = await viewerGet(fx.server, `/experiments/${scenario.experimentId}`);
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe(
      `/login?next=${encodeURIComponent(`/experiments/${scenario.experimentId}`)}`,
    );
  });
});

describe('the experiment list', () => {
  it('lists experiments newest first with their eval set and revision, 50 a page', async () => {
    const { html } = await pageOf('/experiments');
    const first = html.indexOf(`/experiments/${scenario.experimentId}"`);
    const second = html.indexOf(`/experiments/${scenario.baselineId}"`);
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(first);
    expect(html).toContain(`${scenario.evalSetSlug} v1`);
    expect(html).toContain('<code>v1.2 &lt;script&gt;alert(&quot;revision&quot;)&lt;/script&gt;</code>');
    expect(html).not.toContain('Older »');
  });

  it('pages past 50 experiments', async () => {
    // 49 more experiments on the baseline's eval set: 51 in all.
    const baseline = (await (
      await fx.request(`/api/v1/evals/experiments/${scenario.baselineId}`, { key: fx.server.keys.readWrite })
    ).json()) as { datasetVersionId: string };
    for (let i = 0; i < 49; i++) {
      const res = await fx.request('/api/v1/evals/experiments', {
        method: 'POST',
        key: fx.server.keys.readWrite,
        headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify({
          name: `extra ${i}`,
          datasetVersionId: baseline.datasetVersionId,
          scorerVersionIds: [],
        }),
      });
      expect(res.status).toBe(200);
    }
    const { html } = await pageOf('/experiments');
    expect(html.match(/<tr><td>/g)).toHaveLength(50);
    expect(html).toContain('extra 48');
    expect(html).not.toContain(`/experiments/${scenario.baselineId}"`);
    const older = /<a href="(\/experiments\?before=\d+)">Older »<\/a>/.exec(html)?.[1];
    expect(older).toBeDefined();
    const next = await pageOf(older!);
    expect(next.html.match(/<tr><td>/g)).toHaveLength(1);
    expect(next.html).toContain(`/experiments/${scenario.baselineId}"`);
    expect(next.html).toContain('« Newest');
  });
});
