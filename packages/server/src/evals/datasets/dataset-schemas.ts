/**
 * Schemas of datasets, dataset versions and cases: what the routes validate and the OpenAPI
 * document shows.
 * @module
 */
import { z } from '@hono/zod-openapi';
import {
  IdSchema,
  JsonObjectSchema,
  JsonValueSchema,
  OptionalJsonValueSchema,
  text,
} from '../core/common-schemas.js';
import { pageSchema } from '../core/paging.js';
import { AGENT_ROLES, CaseFilesInputSchema, PinnedFileSchema } from '../files/case-file-schemas.js';

/** A dataset. */
export const DatasetSchema = z
  .object({
    id: IdSchema,
    name: z.string(),
    slug: z.string(),
    description: z.string().optional(),
    latestVersionId: IdSchema.nullable().describe('The newest version, or null before the first'),
    versionCount: z.number().int(),
    createdAt: z.string().describe('ISO 8601'),
  })
  .openapi('Dataset');

/** A dataset version. `revision` grows with every write (case write, freeze). */
export const DatasetVersionSchema = z
  .object({
    id: IdSchema,
    datasetId: IdSchema,
    number: z.number().int().describe('1 for the first version of the dataset, then 2, 3, …'),
    revision: z.number().int().describe('Pass as expectedRevision to write; grows with every write'),
    fromVersionId: IdSchema.nullable().describe('The version whose cases this one started with'),
    frozen: z.boolean(),
    frozenAt: z.string().nullable(),
    caseCount: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('DatasetVersion');

/** `POST …/datasets/{datasetId}/versions`. */
export const CreateDatasetVersionSchema = z
  .strictObject({
    fromVersionId: IdSchema.optional().describe('Start with a copy of the cases (and files) of this version'),
  })
  .openapi('CreateDatasetVersion');

/** `POST …/freeze`. */
export const FreezeSchema = z
  .strictObject({ expectedRevision: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) })
  .openapi('FreezeDatasetVersion');

/** The fields of a case write shared by plain and eval-set cases. */
export const caseWriteFields = {
  expectedRevision: z
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .describe("The version's current revision; a stale one is 409"),
  externalKey: text(256).describe(
    'Your key of the case, unique in the version: writing an existing key replaces that case',
  ),
  inputs: JsonValueSchema,
  expected: OptionalJsonValueSchema.describe('Omitted: no reference; null: a present reference'),
  metadata: JsonObjectSchema.optional(),
  files: CaseFilesInputSchema.optional(),
};

/** `POST …/dataset-versions/{versionId}/cases`. */
export const CaseWriteSchema = z.strictObject(caseWriteFields).openapi('CaseWrite');

/**
 * `POST …/dataset-versions/{versionId}/eval-set-cases`: an eval-set case, a case whose files are
 * the document inputs of a direct-case run. At least one file has a role the agent sees
 * (`source`, `attached_template`, `attached_reference`, `original`); `inputs` defaults to `{}`.
 */
export const EvalSetCaseWriteSchema = z
  .strictObject({
    ...caseWriteFields,
    inputs: JsonValueSchema.optional().describe('Default {}'),
    files: CaseFilesInputSchema.min(1),
  })
  .refine((write) => write.files.some((file) => AGENT_ROLES.has(file.role)), {
    message:
      'needs a file of a role the agent sees (source, attached_template, attached_reference or original)',
    path: ['files'],
  })
  .openapi('EvalSetCaseWrite');

/** A case of a dataset version. */
export const CaseSchema = z
  .object({
    id: IdSchema,
    versionId: IdSchema,
    kind: z
      .enum(['case', 'eval_set'])
      .describe('eval_set: a case whose files are the document inputs of a direct-case run'),
    externalKey: z.string(),
    inputs: JsonValueSchema,
    expected: OptionalJsonValueSchema.describe('Absent when the case has no reference'),
    metadata: JsonObjectSchema.optional(),
    files: z.array(PinnedFileSchema).describe('Pinned files'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Case');

/** The answer of a case write. */
export const CaseWriteResultSchema = z
  .object({ item: CaseSchema, version: DatasetVersionSchema })
  .openapi('CaseWriteResult');

export const DatasetPageSchema = pageSchema(DatasetSchema, 'DatasetPage');

export const DatasetVersionPageSchema = pageSchema(DatasetVersionSchema, 'DatasetVersionPage');
export const CasePageSchema = pageSchema(CaseSchema, 'CasePage');
