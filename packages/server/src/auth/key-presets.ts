/**
 * Key presets and the single table of which presets each route allows.
 * @module
 */
import { EVAL_ROUTE_ACCESS, type EvalRouteId } from '../evals/eval-route-access.js';
import { MEDIA_ROUTE_ACCESS, type MediaRouteId } from '../media/media-route-access.js';

/**
 * The presets a project key is issued with. `setup` is a setup credential (`svc_setup_…`);
 * `machine` is the machine credential of managed targets (`svc_machine_…`): the service signs the
 * requests it sends to a managed target with it, and the target's handler claims executions and
 * saves their outcomes with it.
 */
export type KeyPreset = 'tracing' | 'read' | 'read_write' | 'setup' | 'machine';

/** Every preset, in a fixed order. */
export const KEY_PRESETS: readonly KeyPreset[] = ['tracing', 'read', 'read_write', 'setup', 'machine'];

/** The prefix of each preset's keys. Keys are `<prefix><43 base64url characters>`. */
export const KEY_PREFIXES: Readonly<Record<KeyPreset, string>> = {
  tracing: 'svc_tracing_',
  read: 'svc_read_',
  read_write: 'svc_rw_',
  setup: 'svc_setup_',
  machine: 'svc_machine_',
};

/** Identifies a route in the access table, in fault injection and in the OpenAPI document. */
export type RouteId =
  | 'projects.current'
  | 'otlp.traces'
  | 'otlp.logs'
  | 'traces.receipt'
  | 'openapi'
  | EvalRouteId
  | MediaRouteId;

/** A route of the service and the presets allowed to call it. */
export interface RouteAccess {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  presets: readonly KeyPreset[];
  /**
   * `signed-link`: the route takes no key (`presets` is empty); the link's signature, checked by
   * the route itself, authorizes the request. Otherwise a Bearer key of one of `presets`.
   */
  auth?: 'signed-link';
}

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
 */
export const ROUTE_ACCESS: Readonly<Record<RouteId, RouteAccess>> = {
  'projects.current': {
    method: 'GET',
    path: '/api/v1/projects/current',
    presets: ['tracing', 'read', 'read_write', 'setup'],
  },
  'otlp.traces': {
    method: 'POST',
    path: '/api/v1/otlp/v1/traces',
    presets: ['tracing', 'read_write', 'setup'],
  },
  'otlp.logs': { method: 'POST', path: '/api/v1/otlp/v1/logs', presets: ['tracing', 'read_write', 'setup'] },
  'traces.receipt': {
    method: 'GET',
    path: '/api/v1/traces/{otelTraceId}/receipt',
    presets: ['tracing', 'read', 'read_write', 'setup'],
  },
  openapi: {
    method: 'GET',
    path: '/api/v1/openapi.json',
    presets: ['tracing', 'read', 'read_write', 'setup'],
  },
  // The evaluation registry: writes need Read and write (`project_write`); reads, Read or Read and write.
  ...EVAL_ROUTE_ACCESS,
  // Media files: reserve and complete like ingest; download links for Read keys; signed links.
  ...MEDIA_ROUTE_ACCESS,
};
