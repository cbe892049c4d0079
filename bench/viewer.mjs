/**
 * The viewer benchmark: the trace page of a 10,000-span trace (`/traces/{traceId}`), as the
 * server renders it and as a browser paints it.
 *
 * - Server: `startServer()` of the built `@svc-run/server` in this process, on a temporary data
 *   directory. One trace of BENCH_VIEWER_SPANS spans (default 10,000: the most one outline page
 *   holds) is stored through the OTLP route: a root, 100 agent steps under it, each with model
 *   calls (model name, tokens) and tool calls under them, one in 50 with an error; GenAI
 *   attributes on every span.
 * - Server figures (in-process requests through the app's fetch handler, so the figure is the
 *   server's own work: the outline read, the tree, the rows, the selected span's detail, the HTML
 *   text): the trace page with its root span selected, ms (median and fastest of
 *   BENCH_VIEWER_ROUNDS rounds, default 7, after 2 warm-ups) and bytes. Baselines of the same run:
 *   the read API's outline of the same trace (`GET /api/v1/traces/{traceId}`, JSON, what any page
 *   must at least read), and the detail fragment the page's script fetches for another span.
 * - Browser figures (reported, not asserted): Debian's Chromium through playwright-core
 *   (`scripts/chromium.mjs`), logged in through a one-time login link; for BENCH_VIEWER_PAINTS
 *   loads (default 3) of the page over HTTP on loopback: first paint and first contentful paint
 *   (`performance.getEntriesByType('paint')`), DOMContentLoaded and load, medians. Without
 *   Chromium the browser figures are left out, saying how to install it.
 *
 * Aim (issue 14): the server under 200 ms, the page painted within 2 s. Printed as `met` or
 * `MISSED`; a miss does not fail the run (shared machines are noisy).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { startServer } from '@svc-run/server';
import { findChromium, launchChromium } from '../scripts/chromium.mjs';
import { envInt, fmt, fmtInt, pad, padLeft, prng } from './bench-support.mjs';

const SPANS = envInt('BENCH_VIEWER_SPANS', 10_000, 2);
const ROUNDS = envInt('BENCH_VIEWER_ROUNDS', 7, 1);
const PAINTS = envInt('BENCH_VIEWER_PAINTS', 3, 1);
const SEED = envInt('BENCH_SEED', 42, 0);

const hex = (bytes) => randomBytes(bytes).toString('hex');
const str = (key, value) => ({ key, value: { stringValue: value } });
const int = (key, value) => ({ key, value: { intValue: String(value) } });

/** The spans of one agent trace: root → steps → model and tool calls, in start order. */
function agentTrace(traceId) {
  const random = prng(SEED);
  const start = 1763740800000000000n;
  const span = (spanId, parentSpanId, name, at, duration, attributes, error = false) => ({
    traceId,
    spanId,
    ...(parentSpanId ? { parentSpanId } : {}),
    name,
    kind: name.startsWith('chat') ? 3 : 1,
    startTimeUnixNano: String(start + BigInt(at) * 1000n),
    endTimeUnixNano: String(start + BigInt(at + duration) * 1000n),
    attributes,
    ...(error ? { status: { code: 2, message: 'tool failed' } } : {}),
  });
  const root = hex(8);
  const spans = [
    span(root, null, 'invoke_agent travel-planner', 0, SPANS * 1000, [
      str('gen_ai.operation.name', 'invoke_agent'),
    ]),
  ];
  const steps = Math.min(100, SPANS - 1);
  const perStep = Math.ceil((SPANS - 1 - steps) / steps);
  let at = 10;
  for (let s = 0; s < steps && spans.length < SPANS; s++) {
    const step = hex(8);
    const stepStart = at;
    spans.push(
      span(step, root, `agent step ${s + 1}`, stepStart, perStep * 1000 + 500, [
        str('app.step', String(s + 1)),
      ]),
    );
    for (let c = 0; c < perStep && spans.length < SPANS; c++) {
      const isModel = c % 2 === 0;
      const duration = 200 + Math.floor(random() * 700);
      const error = spans.length % 50 === 0;
      spans.push(
        isModel
          ? span(hex(8), step, 'chat gpt-4o-mini', at, duration, [
              str('gen_ai.operation.name', 'chat'),
              str('gen_ai.request.model', 'gpt-4o-mini'),
              int('gen_ai.usage.input_tokens', 200 + Math.floor(random() * 800)),
              int('gen_ai.usage.output_tokens', 20 + Math.floor(random() * 200)),
            ])
          : span(
              hex(8),
              step,
              'execute_tool search_flights',
              at,
              duration,
              [
                str('gen_ai.operation.name', 'execute_tool'),
                str('gen_ai.tool.name', 'search_flights'),
                ...(error ? [str('error.type', 'TimeoutError')] : []),
              ],
              error,
            ),
      );
      at += duration + 10;
    }
    at = Math.max(at, stepStart + perStep * 1000 + 600);
  }
  return { root, spans };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Times `request()` (answer read whole) `ROUNDS` times after two warm-ups. */
async function timed(request) {
  let bytes = 0;
  for (let i = 0; i < 2; i++) await (await request()).arrayBuffer();
  const ms = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    const res = await request();
    const body = await res.arrayBuffer();
    ms.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`answered ${res.status}`);
    bytes = body.byteLength;
  }
  return { median: median(ms), min: Math.min(...ms), bytes };
}

async function browserFigures(server, path) {
  if (findChromium() === undefined) return undefined;
  const { chromium } = await import('playwright-core');
  const browser = await launchChromium(chromium);
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const login = await context.newPage();
    await login.goto(server.viewerLoginLink());
    await login.close();
    const runs = [];
    for (let i = 0; i < PAINTS + 1; i++) {
      const page = await context.newPage();
      await page.goto(`${server.origin}${path}`, { waitUntil: 'load' });
      const timing = await page.evaluate(`(() => {
        const paint = Object.fromEntries(performance.getEntriesByType('paint').map((e) => [e.name, e.startTime]));
        const nav = performance.getEntriesByType('navigation')[0];
        return {
          firstPaint: paint['first-paint'],
          firstContentfulPaint: paint['first-contentful-paint'],
          domContentLoaded: nav.domContentLoadedEventEnd,
          load: nav.loadEventEnd,
          rows: document.querySelectorAll('#tree a.r').length,
        };
      })()`);
      await page.close();
      if (timing.rows !== Math.min(SPANS, 10_000)) throw new Error(`the page shows ${timing.rows} rows`);
      if (i > 0) runs.push(timing); // the first load warms the browser's caches (stylesheet, script)
    }
    const of = (key) => median(runs.map((r) => r[key]));
    return {
      firstPaint: of('firstPaint'),
      firstContentfulPaint: of('firstContentfulPaint'),
      domContentLoaded: of('domContentLoaded'),
      load: of('load'),
    };
  } finally {
    await browser.close();
  }
}

async function main() {
  console.log(`\n== Viewer: the trace page of a ${fmtInt(SPANS)}-span trace ==`);
  const server = await startServer();
  try {
    const traceId = hex(16);
    const { spans } = agentTrace(traceId);
    for (let i = 0; i < spans.length; i += 2000) {
      const res = await server.app.request('/api/v1/otlp/v1/traces', {
        method: 'POST',
        headers: { authorization: `Bearer ${server.keys.tracing}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          resourceSpans: [
            {
              resource: { attributes: [str('service.name', 'travel-planner')] },
              scopeSpans: [{ scope: { name: 'bench' }, spans: spans.slice(i, i + 2000) }],
            },
          ],
        }),
      });
      if (res.status !== 200) throw new Error(`ingest answered ${res.status}`);
    }
    const link = await server.app.request(server.viewerLoginLink());
    const cookie = /^([^;]+)/.exec(link.headers.get('set-cookie') ?? '')?.[1];
    if (!cookie) throw new Error('the login link opened no session');
    const asViewer = (path) => server.app.request(`${server.origin}${path}`, { headers: { cookie } });
    const page = await timed(() => asViewer(`/traces/${traceId}`));
    const outline = await timed(() =>
      server.app.request(`/api/v1/traces/${traceId}`, {
        headers: { authorization: `Bearer ${server.keys.read}` },
      }),
    );
    const fragment = await timed(() =>
      asViewer(`/traces/${traceId}/spans/${spans[spans.length - 1].spanId}`),
    );
    const browser = await browserFigures(server, `/traces/${traceId}`);

    const row = (label, figure, note = '') =>
      console.log(
        `${pad(label, 44)}${padLeft(fmt(figure.median), 9)} ms ${padLeft(fmt(figure.min), 9)} ms ${padLeft(fmtInt(figure.bytes), 12)}  ${note}`,
      );
    console.log(
      `${pad('server (in-process, answer read whole)', 44)}${padLeft('median', 12)}${padLeft('fastest', 13)}${padLeft('bytes', 13)}`,
    );
    row(
      'trace page, root span selected (HTML)',
      page,
      page.median < 200 ? 'met (aim < 200 ms)' : 'MISSED (aim < 200 ms)',
    );
    row('baseline: read API outline (JSON)', outline);
    row('span detail fragment (another span)', fragment);
    console.log(
      `page / outline: ${fmt(page.median / outline.median, 2)}× the time, ${fmt(page.bytes / outline.bytes, 2)}× the bytes`,
    );
    if (browser === undefined) {
      console.log(
        'browser: left out — Chromium is not installed (node scripts/ensure-chromium.mjs installs it)',
      );
    } else {
      console.log(
        `browser (Chromium, loopback HTTP, median of ${PAINTS}): first paint ${fmtInt(browser.firstPaint)} ms, ` +
          `first contentful paint ${fmtInt(browser.firstContentfulPaint)} ms, DOMContentLoaded ${fmtInt(browser.domContentLoaded)} ms, ` +
          `load ${fmtInt(browser.load)} ms — ${browser.firstPaint < 2000 ? 'met' : 'MISSED'} (aim: painted within 2 s)`,
      );
    }
  } finally {
    await server.close();
  }
}

try {
  await main();
} catch (error) {
  console.error('bench failed:', error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
}
