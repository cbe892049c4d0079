/**
 * The evaluation registry's rows of the route → presets table (`ROUTE_ACCESS`). Registry writes
 * need `project_write`, which only the Read-and-write preset has; reads accept Read or Read and
 * write; trace snapshots and the files they list are copies of recorded content, read with Read
 * and write only. Tracing keys and setup credentials are refused (403) on every evaluation route. The
 * upload of an artifact's bytes and the download of a case file take no key: their signed links
 * authorize them.
 * @module
 */
import type { KeyPreset, RouteAccess } from '../auth/key-presets.js';
import { ARTIFACT_UPLOAD_PATH, CASE_FILE_DOWNLOAD_PATH } from './files/case-file-paths.js';
import { MANAGED_ROUTE_ACCESS } from './managed/managed-route-access.js';

const WRITE: readonly KeyPreset[] = ['read_write'];
const READ: readonly KeyPreset[] = ['read', 'read_write'];

const BASE = '/api/v1/evals';

/** Every route of the evaluation registry, by ID. */
export const EVAL_ROUTE_ACCESS = {
  'evals.datasets.create': { method: 'POST', path: `${BASE}/datasets`, presets: WRITE },
  'evals.datasets.list': { method: 'GET', path: `${BASE}/datasets`, presets: READ },
  'evals.datasets.get': { method: 'GET', path: `${BASE}/datasets/{datasetId}`, presets: READ },
  'evals.datasetVersions.create': {
    method: 'POST',
    path: `${BASE}/datasets/{datasetId}/versions`,
    presets: WRITE,
  },
  'evals.datasetVersions.list': {
    method: 'GET',
    path: `${BASE}/datasets/{datasetId}/versions`,
    presets: READ,
  },
  'evals.datasetVersions.get': { method: 'GET', path: `${BASE}/dataset-versions/{versionId}`, presets: READ },
  'evals.datasetVersions.freeze': {
    method: 'POST',
    path: `${BASE}/dataset-versions/{versionId}/freeze`,
    presets: WRITE,
  },
  'evals.cases.list': { method: 'GET', path: `${BASE}/dataset-versions/{versionId}/cases`, presets: READ },
  'evals.cases.add': { method: 'POST', path: `${BASE}/dataset-versions/{versionId}/cases`, presets: WRITE },
  'evals.cases.addEvalSet': {
    method: 'POST',
    path: `${BASE}/dataset-versions/{versionId}/eval-set-cases`,
    presets: WRITE,
  },
  'evals.artifacts.create': { method: 'POST', path: `${BASE}/artifacts`, presets: WRITE },
  // Authorized by the link's signature, not a key (like the media upload and download links).
  'evals.artifacts.upload': {
    method: 'PUT',
    path: ARTIFACT_UPLOAD_PATH,
    presets: [],
    auth: 'signed-link',
  },
  'evals.caseFiles.link': { method: 'GET', path: `${BASE}/cases/{caseId}/files/{sha256}`, presets: READ },
  'evals.caseFiles.download': {
    method: 'GET',
    path: CASE_FILE_DOWNLOAD_PATH,
    presets: [],
    auth: 'signed-link',
  },
  'evals.scorers.create': { method: 'POST', path: `${BASE}/scorers`, presets: WRITE },
  'evals.scorers.list': { method: 'GET', path: `${BASE}/scorers`, presets: READ },
  'evals.scorers.get': { method: 'GET', path: `${BASE}/scorers/{scorerId}`, presets: READ },
  'evals.scorerVersions.publish': {
    method: 'POST',
    path: `${BASE}/scorers/{scorerId}/versions`,
    presets: WRITE,
  },
  'evals.scorerVersions.get': { method: 'GET', path: `${BASE}/scorer-versions/{versionId}`, presets: READ },
  'evals.experiments.create': { method: 'POST', path: `${BASE}/experiments`, presets: WRITE },
  'evals.experiments.get': { method: 'GET', path: `${BASE}/experiments/{experimentId}`, presets: READ },
  'evals.experiments.items': {
    method: 'GET',
    path: `${BASE}/experiments/{experimentId}/items`,
    presets: READ,
  },
  'evals.experiments.case': {
    method: 'GET',
    path: `${BASE}/experiments/{experimentId}/cases/{caseId}`,
    presets: READ,
  },
  'evals.experiments.finish': {
    method: 'POST',
    path: `${BASE}/experiments/{experimentId}/finish`,
    presets: WRITE,
  },
  'evals.executions.start': {
    method: 'POST',
    path: `${BASE}/experiments/{experimentId}/cases/{caseId}/executions`,
    presets: WRITE,
  },
  'evals.executions.get': { method: 'GET', path: `${BASE}/executions/{executionId}`, presets: READ },
  'evals.executions.complete': {
    method: 'POST',
    path: `${BASE}/executions/{executionId}/complete`,
    presets: WRITE,
  },
  'evals.traceSnapshots.get': {
    method: 'GET',
    path: `${BASE}/trace-snapshots/{snapshotId}`,
    presets: WRITE,
  },
  // Snapshot copies of files, like snapshots themselves, are read with Read and write only.
  'evals.traceSnapshots.blob': {
    method: 'GET',
    path: `${BASE}/trace-snapshots/{snapshotId}/blobs/{sha256}`,
    presets: WRITE,
  },
  'evals.runs.create': { method: 'POST', path: `${BASE}/runs`, presets: WRITE },
  'evals.runs.get': { method: 'GET', path: `${BASE}/runs/{runId}`, presets: READ },
  'evals.runs.items': { method: 'GET', path: `${BASE}/runs/{runId}/items`, presets: READ },
  'evals.subjects.get': { method: 'GET', path: `${BASE}/subjects/{subjectId}`, presets: READ },
  'evals.results.submit': { method: 'POST', path: `${BASE}/runs/{runId}/results`, presets: WRITE },
  'evals.results.list': { method: 'GET', path: `${BASE}/runs/{runId}/results`, presets: READ },
  'evals.results.get': { method: 'GET', path: `${BASE}/results/{resultId}`, presets: READ },
  'evals.judge.budget': { method: 'GET', path: `${BASE}/judge/budget`, presets: READ },
  'evals.judgeJobs.create': { method: 'POST', path: `${BASE}/runs/{runId}/judge-jobs`, presets: WRITE },
  'evals.judgeJobs.list': { method: 'GET', path: `${BASE}/runs/{runId}/judge-jobs`, presets: READ },
  'evals.judgeJobs.get': { method: 'GET', path: `${BASE}/judge-jobs/{jobId}`, presets: READ },
  'evals.judgeJobs.cancel': { method: 'POST', path: `${BASE}/judge-jobs/{jobId}/cancel`, presets: WRITE },
  // Managed targets: targets and dispatches like the registry; claim, output files and outcome
  // with the machine credential only.
  ...MANAGED_ROUTE_ACCESS,
} as const satisfies Record<string, RouteAccess>;

/** Identifies a route of the evaluation registry. */
export type EvalRouteId = keyof typeof EVAL_ROUTE_ACCESS;
