/**
 * The viewer ("Traces" and "Experiments"): server-rendered pages (`hono/jsx`) with one small static script, served
 * by the reference server beside its API. Access is by a browser session, not by a Bearer key:
 * a session is opened at `/login` with a Read or Read-and-write key (or by a one-time login link)
 * and kept in an HttpOnly, SameSite=Strict cookie; so these routes are not rows of the route
 * table (which is about Bearer keys) and `app.ts` mounts them apart, each checking the session.
 *
 * | Route | What |
 * | --- | --- |
 * | `GET /login`, `POST /login` | the login form; a Read or Read-and-write key opens a session |
 * | `GET /login/link?token=` | a one-time login link (`svc serve`, the demo) |
 * | `GET`/`POST /logout` | ends the session |
 * | `GET /traces` | the trace list with the search form |
 * | `GET /traces/{traceId}` | the trace page (`?span=` selected span, `?after=` spans page) |
 * | `GET /traces/{traceId}/spans/{spanId}` | the selected span's detail (fragment for the script) |
 * | `GET /traces/{traceId}/spans/{spanId}/value` | the whole text of a value shown cut |
 * | `GET /traces/{traceId}/files/{sha256}[/wav]` | a file's bytes (raw PCM as WAV) |
 * | `GET /experiments` | the experiments, newest first (`?before=` pages) |
 * | `GET /experiments/{experimentId}` | an experiment's cases (`?from=`), compared with a baseline (`?baseline=`) |
 * | `GET /scenarios`, `GET /scenarios/{scenario}` | scenarios, a scenario (public part, Run button, runs) |
 * | `POST /scenarios/{scenario}/run` | launches a run on a live local agent, or shows why not |
 * | `GET /scenarios/runs/{runId}` | a scenario run: each case's trials, outcomes, failed checks |
 * | `GET /viewer/static/…` | the script and the stylesheet |
 * @module
 */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { registerAssetRoutes } from './routes/asset-routes.js';
import { registerExperimentRoutes } from './routes/experiment-routes.js';
import { registerFileRoutes } from './routes/file-routes.js';
import { registerLoginRoutes } from './routes/login-routes.js';
import { registerScenarioPages } from './routes/scenario-routes.js';
import { registerTraceRoutes } from './routes/trace-routes.js';
import { registerValueRoute } from './routes/value-route.js';
import { loadViewerAssets } from './viewer-assets.js';
import type { ViewerOptions } from './viewer-options.js';

/**
 * The viewer's routes as a Hono app, to mount at the root (`app.route('/', viewer)`). It
 * registers no catch-all middleware, so nothing of it reaches the API's routes.
 */
export function createViewer(options: ViewerOptions): Hono {
  const assets = loadViewerAssets();
  const viewer = new Hono();
  viewer.onError((error) => {
    if (error instanceof HTTPException) return error.getResponse();
    console.error('svc server: viewer error:', error instanceof Error ? error.name : typeof error);
    return new Response('The viewer failed to answer; see the server log.\n', {
      status: 500,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
    });
  });
  registerAssetRoutes(viewer, assets);
  registerLoginRoutes(viewer, options, assets);
  registerTraceRoutes(viewer, options, assets);
  registerExperimentRoutes(viewer, options, assets);
  registerValueRoute(viewer, options);
  registerFileRoutes(viewer, options);
  if (options.scenarios !== undefined) registerScenarioPages(viewer, options, options.scenarios, assets);
  return viewer;
}
