/**
 * Routes of datasets, dataset versions and cases (`/api/v1/evals/datasets…`,
 * `/api/v1/evals/dataset-versions…`).
 * @module
 */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { GuardedEnv } from '../../auth/route-guard.js';
import { IdentitySchema, idParam } from '../core/common-schemas.js';
import type { EvalContext } from '../core/eval-context.js';
import { registerEvalRoute } from '../core/eval-route.js';
import { registerGetRoute, registerPageRoute } from '../core/read-routes.js';
import type { CaseFiles } from '../files/case-files.js';
import {
  CasePageSchema,
  CaseWriteResultSchema,
  CaseWriteSchema,
  CreateDatasetVersionSchema,
  DatasetPageSchema,
  DatasetSchema,
  DatasetVersionPageSchema,
  DatasetVersionSchema,
  EvalSetCaseWriteSchema,
  FreezeSchema,
} from './dataset-schemas.js';
import type { DatasetStore } from './dataset-store.js';

const DatasetParams = z.object({ datasetId: idParam('datasetId') });
const VersionParams = z.object({ versionId: idParam('versionId') });

const WRITE_CONFLICTS = 'The version is frozen (frozen) or expectedRevision is stale (stale_revision)';

/** The errors of both case writes (a case, an eval-set case): the version, and the files they pin. */
const CASE_WRITE_ERRORS = {
  404: 'No such version, artifact, or file in the named trace',
  409: `${WRITE_CONFLICTS}; or an artifact is not uploaded yet (conflict)`,
  503: 'File storage cannot be read',
};

/** Registers the dataset routes. */
export function registerDatasetRoutes(
  app: OpenAPIHono<GuardedEnv>,
  context: EvalContext,
  store: DatasetStore,
  caseFiles: CaseFiles,
): void {
  registerEvalRoute(app, context, {
    id: 'evals.datasets.create',
    summary: 'Creates a dataset',
    body: IdentitySchema,
    response: DatasetSchema,
    errors: { 409: 'The slug is taken (conflict)' },
    handle: ({ body }) => store.createDataset(body),
  });
  registerPageRoute(app, context, {
    id: 'evals.datasets.list',
    summary: 'Lists datasets, oldest first',
    response: DatasetPageSchema,
    handle: (_params, page) => store.listDatasets(page),
  });
  registerGetRoute(app, context, {
    id: 'evals.datasets.get',
    summary: 'Reads a dataset',
    params: DatasetParams,
    response: DatasetSchema,
    missing: 'No such dataset',
    handle: (params) => store.getDataset(params.datasetId),
  });
  registerEvalRoute(app, context, {
    id: 'evals.datasetVersions.create',
    summary: 'Creates the next version of a dataset, empty or copying the cases of fromVersionId',
    params: DatasetParams,
    body: CreateDatasetVersionSchema,
    response: DatasetVersionSchema,
    errors: { 404: 'No such dataset, or fromVersionId is not one of its versions' },
    handle: ({ params, body }) => store.createVersion(params.datasetId, body.fromVersionId),
  });
  registerPageRoute(app, context, {
    id: 'evals.datasetVersions.list',
    summary: 'Lists the versions of a dataset, oldest (number 1) first',
    params: DatasetParams,
    response: DatasetVersionPageSchema,
    missing: 'No such dataset',
    handle: (params, page) => store.listVersions(params.datasetId, page),
  });
  registerGetRoute(app, context, {
    id: 'evals.datasetVersions.get',
    summary: 'Reads a dataset version',
    params: VersionParams,
    response: DatasetVersionSchema,
    missing: 'No such version',
    handle: (params) => store.getVersion(params.versionId),
  });
  registerEvalRoute(app, context, {
    id: 'evals.datasetVersions.freeze',
    summary: 'Freezes a dataset version: it refuses writes from then on',
    params: VersionParams,
    body: FreezeSchema,
    response: DatasetVersionSchema,
    errors: { 404: 'No such version', 409: WRITE_CONFLICTS },
    handle: ({ params, body }) => store.freeze(params.versionId, body.expectedRevision),
  });
  registerPageRoute(app, context, {
    id: 'evals.cases.list',
    summary: 'Lists the cases of a dataset version, in the order they were first written',
    params: VersionParams,
    response: CasePageSchema,
    missing: 'No such version',
    handle: (params, page) => store.listCases(params.versionId, page),
  });
  registerEvalRoute(app, context, {
    id: 'evals.cases.add',
    summary: 'Writes a case: adds it, or replaces the case with the same externalKey',
    description:
      'Omitting expected means the case has no reference; expected: null is a present reference. Up to 32 ' +
      'files: an uploaded artifact, inline base64 bytes, or a file copied from a trace ({ traceId, sha256 }); ' +
      'each 1 byte to 25 MiB. The answer holds the case and the version at its new revision.',
    params: VersionParams,
    body: CaseWriteSchema,
    response: CaseWriteResultSchema,
    errors: CASE_WRITE_ERRORS,
    prepare: ({ body }) => caseFiles.prepare(body.files),
    handle: ({ params, body, prepared }) =>
      store.writeCase(params.versionId, body, 'case', caseFiles.pin(prepared)),
  });
  registerEvalRoute(app, context, {
    id: 'evals.cases.addEvalSet',
    summary: 'Writes an eval-set case: a case whose files are the document inputs of a direct-case run',
    description:
      'Like a case write, but files are required and at least one has a role the agent sees (source, ' +
      'attached_template, attached_reference, original); inputs defaults to {}. The direct-case command ' +
      '(svc eval --set) writes these files under files/<role>/<name> for the agent command.',
    params: VersionParams,
    body: EvalSetCaseWriteSchema,
    response: CaseWriteResultSchema,
    errors: CASE_WRITE_ERRORS,
    prepare: ({ body }) => caseFiles.prepare(body.files),
    handle: ({ params, body, prepared }) =>
      store.writeCase(
        params.versionId,
        { ...body, inputs: body.inputs ?? {} },
        'eval_set',
        caseFiles.pin(prepared),
      ),
  });
}
