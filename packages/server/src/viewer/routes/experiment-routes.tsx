/**
 * The viewer's experiment pages: `/experiments` (the list, newest first; `?before=` pages) and
 * `/experiments/{experimentId}` (`?from=` pages the cases; `?baseline=<experiment ID>` compares
 * with another experiment, by default the one `svc eval --baseline` recorded). The same session as
 * the trace pages. The `runUrl` of `svc eval` opens the experiment page.
 * @module
 */
import type { Hono } from 'hono';
import type { EvalRegistry } from '../../evals/eval-registry.js';
import { ApiError } from '../../http/api-error.js';
import { caseScorers } from '../../scenarios/store/case-scorers.js';
import { type CaseFiles, caseOutputFiles } from '../experiments/case-files.js';
import { compareExperiments } from '../experiments/experiment-comparison.js';
import { readExperiment, svcEvalConfig } from '../experiments/read-experiment.js';
import { ExperimentListPage } from '../pages/experiment-list-page.js';
import { type BaselineView, CASES_PER_PAGE, ExperimentPage } from '../pages/experiment-page.js';
import type { ViewerAssets } from '../viewer-assets.js';
import { pageHeaders } from '../viewer-headers.js';
import type { ViewerOptions } from '../viewer-options.js';
import { frameOf, page } from './render-page.js';
import { notFoundPage, withSession } from './session-page.js';

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EXPERIMENTS_PER_PAGE = 50;
const LIST_LINK = { href: '/experiments', text: 'All experiments' };

function positionOf(text: string | null): number | undefined {
  return text !== null && /^\d{1,15}$/.test(text) ? Number(text) : undefined;
}

/** Which scorer versions grade each case of an experiment (see `readExperiment`). */
type ScorersOf = NonNullable<Parameters<typeof readExperiment>[2]>;

/** The comparison with `baselineId`, or why there is none. */
function baselineOf(
  registry: EvalRegistry,
  view: ReturnType<typeof readExperiment>,
  baselineId: string,
  scorersOf: ScorersOf | undefined,
): BaselineView {
  if (!ID.test(baselineId)) {
    return { experimentId: baselineId, problem: 'The baseline is not an experiment ID (a lowercase UUID).' };
  }
  if (baselineId === view.experiment.id) {
    return { experimentId: baselineId, problem: 'The baseline is this experiment.' };
  }
  let baseline: ReturnType<typeof readExperiment>;
  try {
    baseline = readExperiment(registry, baselineId, scorersOf);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      return { experimentId: baselineId, problem: `No experiment ${baselineId} to compare with.` };
    }
    throw error;
  }
  const scorerOf = (side: typeof view) => {
    const byVersion = new Map(side.scorers.map((scorer) => [scorer.versionId, scorer]));
    return (versionId: string) => {
      const scorer = byVersion.get(versionId);
      return scorer === undefined
        ? { id: versionId, slug: versionId }
        : { id: scorer.scorerId, slug: scorer.slug };
    };
  };
  return {
    experimentId: baselineId,
    name: baseline.experiment.name,
    revision: baseline.revision,
    comparison: compareExperiments(
      { outcomes: view.outcomes, scorerOf: scorerOf(view) },
      { outcomes: baseline.outcomes, scorerOf: scorerOf(baseline) },
    ),
  };
}

/** Registers the experiment pages. */
export function registerExperimentRoutes(app: Hono, options: ViewerOptions, assets: ViewerAssets): void {
  const { evals: registry, readModel } = options;
  // A scenario run's cases are each graded by their own scorer versions.
  const { scenarios } = options;
  const scorersOf: ScorersOf | undefined =
    scenarios === undefined ? undefined : (experiment) => caseScorers(scenarios.scenarios, experiment);
  const noRegistry = 'This server keeps no evaluation registry, so it has no experiments.';

  app.get(
    '/experiments',
    pageHeaders,
    withSession(options, assets, async (c) => {
      if (registry === undefined) return notFoundPage(c, assets, noRegistry);
      const before = positionOf(new URL(c.req.url).searchParams.get('before'));
      const listed = registry.experiments.listNewestFirst({
        limit: EXPERIMENTS_PER_PAGE,
        ...(before === undefined ? {} : { before }),
      });
      const rows = listed.items.map((experiment) => {
        const dataset = registry.datasets.getDataset(experiment.datasetId);
        const version = registry.datasets.getVersion(experiment.datasetVersionId);
        return {
          experiment,
          evalSet: dataset.slug,
          version: version.number,
          revision: svcEvalConfig(experiment).revision,
        };
      });
      return page(
        c,
        <ExperimentListPage
          frame={frameOf(c, assets, true)}
          rows={rows}
          before={listed.before}
          later={before !== undefined}
        />,
      );
    }),
  );

  app.get(
    '/experiments/:experimentId',
    pageHeaders,
    withSession(options, assets, async (c) => {
      if (registry === undefined) return notFoundPage(c, assets, noRegistry);
      const id = c.req.param('experimentId') ?? '';
      if (!ID.test(id)) {
        return notFoundPage(c, assets, 'This is not an experiment ID (a lowercase UUID).', LIST_LINK);
      }
      let view: ReturnType<typeof readExperiment>;
      try {
        view = readExperiment(registry, id, scorersOf);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) {
          return notFoundPage(c, assets, 'No experiment of this ID.', LIST_LINK);
        }
        throw error;
      }
      const params = new URL(c.req.url).searchParams;
      const asked = positionOf(params.get('from')) ?? 0;
      const from = Math.min(asked, Math.max(0, view.outcomes.length - 1));
      const baselineParam = params.get('baseline') ?? undefined;
      const baselineId = baselineParam ?? view.baselineId ?? undefined;
      const files = new Map<string, CaseFiles>();
      for (const outcome of view.outcomes.slice(from, from + CASES_PER_PAGE)) {
        const traceId = outcome.execution?.traceExternalId;
        if (traceId) files.set(outcome.caseId, await caseOutputFiles(readModel, traceId));
      }
      return page(
        c,
        <ExperimentPage
          frame={frameOf(c, assets, true)}
          view={view}
          from={from}
          files={files}
          {...(baselineId === undefined
            ? {}
            : { baseline: baselineOf(registry, view, baselineId, scorersOf) })}
          {...(baselineParam === undefined ? {} : { baselineParam })}
        />,
      );
    }),
  );
}
