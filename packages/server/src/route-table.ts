/**
 * The route table: every route of the service and the key presets it allows, composed here at the
 * top from each feature's rows (`SERVICE_ROUTE_ACCESS`, `EVAL_ROUTE_ACCESS`, `MEDIA_ROUTE_ACCESS`).
 * `app.ts` guards each route with its row; `auth` knows only the shape of a row.
 * @module
 */
import type { RouteAccess } from './auth/key-presets.js';
import { EVAL_ROUTE_ACCESS } from './evals/eval-route-access.js';
import { MEDIA_ROUTE_ACCESS } from './media/media-route-access.js';
import { READ_ROUTE_ACCESS } from './read/read-route-access.js';
import { SERVICE_ROUTE_ACCESS } from './routes/service-route-access.js';
import { SCENARIO_ROUTE_ACCESS } from './scenarios/scenario-route-access.js';

/**
 * Route → presets allowed. A missing or unknown key is answered 401 on every route but the
 * signed-link ones (`auth: 'signed-link'`, which ignore keys); a known key whose preset is not
 * listed is answered 403.
 *
 * - Tracing: ingest, receipts, the project check (the recommended production key).
 * - Read: reading recorded content; never ingest.
 * - Read and write: evaluation workflows and registry writes; it may also ingest, because the
 *   local evaluation runners trace each case they run.
 * - Setup credential: the project check, ingest and receipts, so a new integration can prove it
 *   works; SDKs holding one upload no files.
 * - Machine credential: only the managed-target routes (claim, output files, outcome).
 * - Trial token (not a project key): only its own world's tools (`auth: 'trial-token'`).
 */
const ROUTES = {
  // The service's own routes: the project check, ingest, receipts, the OpenAPI document.
  ...SERVICE_ROUTE_ACCESS,
  // The evaluation registry: writes need Read and write (`project_write`); reads, Read or Read and write.
  ...EVAL_ROUTE_ACCESS,
  // Media files: reserve and complete like ingest; download links for Read keys; signed links.
  ...MEDIA_ROUTE_ACCESS,
  // The read API: browsing traces reads recorded content, so Read and Read-and-write keys only.
  ...READ_ROUTE_ACCESS,
  // Scenarios: like the registry; a world's tools take its trial's token and no project key.
  ...SCENARIO_ROUTE_ACCESS,
} as const satisfies Readonly<Record<string, RouteAccess>>;

/** Identifies a route in the access table, in fault injection and in the OpenAPI document. */
export type RouteId = keyof typeof ROUTES;

/** The route table: each route's method, path and allowed presets. */
export const ROUTE_ACCESS: Readonly<Record<RouteId, RouteAccess>> = ROUTES;
