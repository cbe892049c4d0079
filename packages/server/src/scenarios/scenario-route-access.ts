/**
 * The scenarios' rows of the route → presets table (`ROUTE_ACCESS`, composed at the top). As the
 * rest of the evaluation registry: writes need Read and write, reads accept Read or Read and
 * write. A worker's routes (register, poll, stop, release, complete) are writes: the worker runs
 * with a Read-and-write key. The world routes take a trial token only (`auth: 'trial-token'`):
 * every project key is refused there (403), and a trial token is refused everywhere else (the key
 * ring never holds one: 401).
 * @module
 */
import type { KeyPreset, RouteAccess } from '../auth/key-presets.js';

const WRITE: readonly KeyPreset[] = ['read_write'];
const READ: readonly KeyPreset[] = ['read', 'read_write'];
const BASE = '/api/v1/evals';

/** Every route of scenarios, by ID. */
export const SCENARIO_ROUTE_ACCESS = {
  'evals.scenarios.publish': { method: 'POST', path: `${BASE}/scenarios`, presets: WRITE },
  'evals.scenarios.list': { method: 'GET', path: `${BASE}/scenarios`, presets: READ },
  'evals.scenarios.get': { method: 'GET', path: `${BASE}/scenarios/{scenarioId}`, presets: READ },
  'evals.scenarios.versions': {
    method: 'GET',
    path: `${BASE}/scenarios/{scenarioId}/versions`,
    presets: READ,
  },
  'evals.scenarios.runs': { method: 'GET', path: `${BASE}/scenarios/{scenarioId}/runs`, presets: READ },
  'evals.scenarioVersions.get': {
    method: 'GET',
    path: `${BASE}/scenario-versions/{versionId}`,
    presets: READ,
  },
  'evals.scenarioRuns.create': { method: 'POST', path: `${BASE}/scenario-runs`, presets: WRITE },
  'evals.scenarioRuns.get': { method: 'GET', path: `${BASE}/scenario-runs/{runId}`, presets: READ },
  'evals.trials.start': { method: 'POST', path: `${BASE}/scenario-runs/{runId}/trials`, presets: WRITE },
  'evals.trials.get': { method: 'GET', path: `${BASE}/trials/{trialId}`, presets: READ },
  'evals.trials.toolCalls': { method: 'GET', path: `${BASE}/trials/{trialId}/tool-calls`, presets: READ },
  'evals.trials.seal': { method: 'POST', path: `${BASE}/trials/{trialId}/seal`, presets: WRITE },
  'evals.localAgents.register': { method: 'POST', path: `${BASE}/local-agents`, presets: WRITE },
  'evals.localAgents.list': { method: 'GET', path: `${BASE}/local-agents`, presets: READ },
  'evals.localAgents.poll': { method: 'POST', path: `${BASE}/local-agents/{agentId}/poll`, presets: WRITE },
  'evals.localAgents.stop': { method: 'POST', path: `${BASE}/local-agents/{agentId}/stop`, presets: WRITE },
  'evals.launches.create': { method: 'POST', path: `${BASE}/launches`, presets: WRITE },
  'evals.launches.get': { method: 'GET', path: `${BASE}/launches/{launchId}`, presets: READ },
  'evals.launches.release': { method: 'POST', path: `${BASE}/launches/{launchId}/release`, presets: WRITE },
  'evals.launches.complete': { method: 'POST', path: `${BASE}/launches/{launchId}/complete`, presets: WRITE },
  'worlds.tools.list': {
    method: 'GET',
    path: '/api/v1/worlds/{worldId}/tools',
    presets: [],
    auth: 'trial-token',
  },
  'worlds.tools.call': {
    method: 'POST',
    path: '/api/v1/worlds/{worldId}/tools/{toolName}',
    presets: [],
    auth: 'trial-token',
  },
} as const satisfies Record<string, RouteAccess>;

/** Identifies a route of scenarios. */
export type ScenarioRouteId = keyof typeof SCENARIO_ROUTE_ACCESS;
