/**
 * The managed-target rows of the route → presets table (`ROUTE_ACCESS`), spread into the
 * evaluation registry's rows. Targets and dispatches are evaluation workflows (Read and write to
 * write, Read or Read and write to read); claiming an execution, declaring its output files and
 * saving its outcome take the machine credential only, which no other route accepts.
 * @module
 */
import type { KeyPreset, RouteAccess } from '../../auth/key-presets.js';

const WRITE: readonly KeyPreset[] = ['read_write'];
const READ: readonly KeyPreset[] = ['read', 'read_write'];
const MACHINE: readonly KeyPreset[] = ['machine'];

const BASE = '/api/v1/evals';

/** Every route of managed targets, by ID. */
export const MANAGED_ROUTE_ACCESS = {
  'evals.managedTargets.create': { method: 'POST', path: `${BASE}/managed-targets`, presets: WRITE },
  'evals.managedTargets.get': { method: 'GET', path: `${BASE}/managed-targets/{targetId}`, presets: READ },
  'evals.executions.dispatch': {
    method: 'POST',
    path: `${BASE}/experiments/{experimentId}/cases/{caseId}/dispatch`,
    presets: WRITE,
  },
  'evals.dispatches.get': { method: 'GET', path: `${BASE}/dispatches/{dispatchId}`, presets: READ },
  'evals.executions.claim': {
    method: 'POST',
    path: `${BASE}/executions/{executionId}/claim`,
    presets: MACHINE,
  },
  'evals.executions.outputFiles': {
    method: 'POST',
    path: `${BASE}/executions/{executionId}/output-files`,
    presets: MACHINE,
  },
  'evals.executions.outcome': {
    method: 'POST',
    path: `${BASE}/executions/{executionId}/outcome`,
    presets: MACHINE,
  },
  'evals.executions.managed': {
    method: 'GET',
    path: `${BASE}/executions/{executionId}/managed`,
    presets: READ,
  },
} as const satisfies Record<string, RouteAccess>;
