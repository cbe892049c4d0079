/**
 * Registers every route of the evaluation registry (`/api/v1/evals/…`) on the app. Their access
 * rows are in `ROUTE_ACCESS` (see `eval-route-access.ts`), guarded like every route.
 * @module
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { GuardedEnv } from '../auth/route-guard.js';
import type { MediaRouteOptions } from '../routes/media-route-options.js';
import { registerDatasetRoutes } from './datasets/dataset-routes.js';
import type { EvalRegistry } from './eval-registry.js';
import { registerExperimentRoutes } from './experiments/experiment-routes.js';
import { registerSnapshotBlobRoute } from './experiments/snapshot-blob-route.js';
import { registerCaseFileRoutes } from './files/case-file-routes.js';
import { registerJudgeRoutes } from './judge/judge-routes.js';
import { registerManagedRoutes } from './managed/managed-routes.js';
import { registerRunRoutes } from './runs/run-routes.js';
import { registerScorerRoutes } from './scorers/scorer-routes.js';

/**
 * Registers the evaluation routes of `registry` on `app`. Links (artifact uploads, case-file
 * downloads) are built on `publicOrigin`, else on each request's origin. `media` (the media
 * routes' files, link signer and lifetimes) makes the download links of snapshot files.
 */
export function registerEvalsRoutes(
  app: OpenAPIHono<GuardedEnv>,
  registry: EvalRegistry,
  publicOrigin: string | undefined,
  media: MediaRouteOptions,
): void {
  registry.context.publicOrigin = publicOrigin;
  registerDatasetRoutes(app, registry.context, registry.datasets, registry.caseFiles);
  registerCaseFileRoutes(app, registry.context, {
    caseFiles: registry.caseFiles,
    datasets: registry.datasets,
  });
  registerScorerRoutes(app, registry.context, registry.scorers);
  registerExperimentRoutes(app, registry.context, {
    experiments: registry.experiments,
    snapshots: registry.snapshots,
    caseResults: (executionIds) => registry.results.ofExecutions(executionIds),
  });
  registerSnapshotBlobRoute(app, registry.context, registry.snapshots, media);
  registerRunRoutes(app, registry.context, {
    runs: registry.runs,
    results: registry.results,
    scorers: registry.scorers,
  });
  registerJudgeRoutes(app, registry.context, { jobs: registry.judgeJobs, worker: registry.judgeWorker });
  registerManagedRoutes(app, registry.context, {
    managed: registry.managed,
    deliveries: registry.deliveries,
    caseFiles: registry.caseFiles,
    targetAddresses: registry.targetAddresses,
  });
}
