/**
 * Schemas of evaluation runs, items, subjects and results.
 * @module
 */
import { z } from '@hono/zod-openapi';
import {
  chars,
  ErrorInfoSchema,
  IdSchema,
  JsonObjectSchema,
  OptionalJsonValueSchema,
  scorerVersionIds,
  text,
} from '../core/common-schemas.js';
import { MAX_RESULTS_PER_SUBMISSION, MAX_RUN_SUBJECTS } from '../core/eval-limits.js';
import { pageSchema } from '../core/paging.js';

/** `POST /api/v1/evals/runs`. */
export const CreateRunSchema = z
  .strictObject({
    name: text(256),
    subjectIds: z
      .array(IdSchema)
      .min(1)
      .max(MAX_RUN_SUBJECTS)
      .refine((ids) => new Set(ids).size === ids.length, { message: 'must not repeat an ID' }),
    scorerVersionIds: scorerVersionIds(1),
  })
  .openapi('CreateEvaluationRun');

export const CreatedRunSchema = z.object({ id: IdSchema }).openapi('CreatedEvaluationRun');

/** An evaluation run. */
export const RunSchema = z
  .object({
    id: IdSchema,
    name: z.string(),
    experimentId: IdSchema.nullable(),
    scorerVersionIds: z.array(IdSchema),
    itemCount: z.number().int(),
    createdAt: z.string(),
  })
  .openapi('EvaluationRun');

/** An evaluation item. */
export const ItemSchema = z
  .object({ id: IdSchema, runId: IdSchema, subjectId: IdSchema, createdAt: z.string() })
  .openapi('EvaluationItem');

export const ItemPageSchema = pageSchema(ItemSchema, 'EvaluationItemPage');

/** A subject. */
export const SubjectSchema = z
  .object({
    id: IdSchema,
    executionId: IdSchema,
    experimentId: IdSchema,
    caseId: IdSchema,
    executionState: z.enum(['succeeded', 'error', 'cancelled']),
    inputs: z.unknown(),
    expected: OptionalJsonValueSchema,
    metadata: JsonObjectSchema.optional(),
    output: OptionalJsonValueSchema,
    error: ErrorInfoSchema.optional(),
    traceId: z.string().nullable(),
    traceSnapshotId: IdSchema.nullable(),
    createdAt: z.string(),
  })
  .openapi('Subject');

/** One returned metric of a Score. */
export const ScoreMetricSchema = z
  .strictObject({
    name: z.string(),
    value: z.union([z.boolean(), z.number(), z.string()]),
    passed: z.boolean().optional(),
  })
  .openapi('ScoreMetric');

/** The fields of a Score. */
const scoreFields = {
  status: z.enum(['scored', 'error', 'skipped']),
  metrics: z.array(ScoreMetricSchema).optional().describe('scored: one per metric of the pinned definition'),
  explanation: chars(65_536).optional(),
  evidence: OptionalJsonValueSchema,
  error: ErrorInfoSchema.optional().describe('error: { type, message? }'),
};

/** A result submission item. */
export const ResultSubmissionItemSchema = z
  .strictObject({
    evaluationItemId: IdSchema,
    scorerVersionId: IdSchema,
    ...scoreFields,
    sourceDigest: z
      .string()
      .optional()
      .describe("Required for local_code scorer versions: the version's digest"),
  })
  .openapi('ResultSubmissionItem');

/** `POST …/runs/{runId}/results`. */
export const SubmitResultsSchema = z
  .strictObject({ results: z.array(ResultSubmissionItemSchema).min(1).max(MAX_RESULTS_PER_SUBMISSION) })
  .openapi('SubmitResults');

export const SubmittedResultsSchema = z
  .object({ ids: z.array(IdSchema).describe('Result IDs, in submission order') })
  .openapi('SubmittedResults');

/** A stored result. */
export const ResultSchema = z
  .object({
    id: IdSchema,
    runId: IdSchema,
    evaluationItemId: IdSchema,
    subjectId: IdSchema,
    scorerVersionId: IdSchema,
    ...scoreFields,
    sourceDigest: z.string().optional(),
    judgeJobId: IdSchema.nullable(),
    createdAt: z.string(),
  })
  .openapi('EvaluationResult');

export const ResultPageSchema = pageSchema(ResultSchema, 'EvaluationResultPage');
