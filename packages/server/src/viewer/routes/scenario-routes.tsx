/**
 * The scenario pages and the Run button: `GET /scenarios`, `GET /scenarios/{scenario}`,
 * `POST /scenarios/{scenario}/run` (launches a run on a live local agent and goes to its page, or
 * shows why not) and `GET /scenarios/runs/{runId}`. Pages take a viewer session; the POST is
 * accepted from this origin only (Hono's CSRF check), like the login form.
 * @module
 */
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { csrf } from 'hono/csrf';
import { ApiError } from '../../http/api-error.js';
import type { Scenarios } from '../../scenarios/scenarios.js';
import { publicVersion } from '../../scenarios/store/scenario-store.js';
import { inTransaction } from '../../store/sqlite-database.js';
import { ScenarioListPage, ScenarioPage, ScenarioRunPage } from '../pages/scenario-pages.js';
import type { ViewerAssets } from '../viewer-assets.js';
import { pageHeaders } from '../viewer-headers.js';
import type { ViewerOptions } from '../viewer-options.js';
import { frameOf, page } from './render-page.js';
import { notFoundPage, withSession } from './session-page.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every item of a registry listing (the pages are small: scenarios, agents, a scenario's runs). */
function all<T>(
  list: (page: { after: number; limit: number }) => { items: T[]; nextCursor: string | null },
): T[] {
  const items: T[] = [];
  let after = 0;
  for (;;) {
    const page = list({ after, limit: 100 });
    items.push(...page.items);
    if (page.nextCursor === null) return items;
    after = Number.parseInt(page.nextCursor.slice(3), 16);
  }
}

/** Registers the scenario pages. */
export function registerScenarioPages(
  app: Hono,
  options: ViewerOptions,
  scenarios: Scenarios,
  assets: ViewerAssets,
): void {
  const sameOrigin = csrf({
    origin: (origin, c) => origin === new URL(c.req.url).origin || origin === options.publicOrigin,
  });
  const formLimit = bodyLimit({ maxSize: 8 * 1024, onError: (c) => c.text('The form is too large.', 413) });
  const guarded = (handler: (c: Context) => Response | Promise<Response>) =>
    withSession(options, assets, async (c) => handler(c));
  const notFound = (c: Context, message: string) =>
    notFoundPage(c, assets, message, { href: '/scenarios', text: 'All scenarios' });
  const scenarioPage = (c: Context, idOrSlug: string, problem?: string) => {
    let scenario: ReturnType<typeof scenarios.scenarios.getScenario>;
    try {
      scenario = scenarios.scenarios.getScenario(idOrSlug);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404)
        return notFound(c, 'No scenario has this ID or slug.');
      throw error;
    }
    const version = publicVersion(scenarios.scenarios.record(scenario.latestVersionId));
    const agents = scenarios.agents.live();
    const runs = all((request) => scenarios.runs.listOfScenario(scenario.id, request))
      .reverse()
      .slice(0, 20);
    return page(
      c,
      <ScenarioPage
        frame={frameOf(c, assets, true)}
        scenario={scenario}
        version={version}
        agents={agents}
        runs={runs}
        {...(problem === undefined ? {} : { problem })}
      />,
      problem === undefined ? 200 : 409,
    );
  };

  app.get(
    '/scenarios',
    pageHeaders,
    guarded((c) =>
      page(
        c,
        <ScenarioListPage
          frame={frameOf(c, assets, true)}
          scenarios={all((request) => scenarios.scenarios.listScenarios(request))}
          liveAgents={scenarios.agents.live().length}
        />,
      ),
    ),
  );

  app.get(
    '/scenarios/runs/:runId',
    pageHeaders,
    guarded((c) => {
      const runId = c.req.param('runId') ?? '';
      if (!UUID.test(runId)) return notFound(c, 'No scenario run has this ID.');
      let record: ReturnType<typeof scenarios.runs.record>;
      try {
        record = scenarios.runs.record(runId);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404)
          return notFound(c, 'No scenario run has this ID.');
        throw error;
      }
      const origin = options.publicOrigin ?? new URL(c.req.url).origin;
      const trials = scenarios.trials.ofRun(runId).map((row) => scenarios.trials.view(row));
      const run = scenarios.runs.summary(record, trials, origin);
      const launch = scenarios.agents.launchOfRun(runId, origin);
      const agent = launch?.agentId ? scenarios.agents.agent(launch.agentId) : undefined;
      return page(
        c,
        <ScenarioRunPage
          frame={frameOf(c, assets, true)}
          run={run}
          scenario={scenarios.scenarios.getScenario(run.scenarioId)}
          launch={launch}
          agent={agent}
        />,
      );
    }),
  );

  app.get(
    '/scenarios/:scenario',
    pageHeaders,
    guarded((c) => scenarioPage(c, c.req.param('scenario') ?? '')),
  );

  app.post(
    '/scenarios/:scenario/run',
    pageHeaders,
    sameOrigin,
    formLimit,
    guarded(async (c) => {
      const idOrSlug = c.req.param('scenario') ?? '';
      const form = await c.req.parseBody();
      const trials = Number(typeof form.trials === 'string' && form.trials !== '' ? form.trials : '1');
      if (!Number.isInteger(trials) || trials < 1 || trials > 100) {
        return scenarioPage(c, idOrSlug, 'Trials per case must be a whole number from 1 to 100.');
      }
      const agentId = typeof form.agentId === 'string' && UUID.test(form.agentId) ? form.agentId : undefined;
      const origin = options.publicOrigin ?? new URL(c.req.url).origin;
      try {
        const { launch } = inTransaction(scenarios.options.registry.context.db, () =>
          scenarios.agents.launch({ scenarioId: idOrSlug, trials, agentId }, origin),
        );
        return c.redirect(`/scenarios/runs/${launch.runId}`, 303);
      } catch (error) {
        if (error instanceof ApiError && error.status === 409)
          return scenarioPage(c, idOrSlug, error.message);
        if (error instanceof ApiError && error.status === 404) return notFound(c, error.message);
        throw error;
      }
    }),
  );
}
