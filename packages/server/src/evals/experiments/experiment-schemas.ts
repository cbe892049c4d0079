/**
 * Schemas of experiments, executions and trace snapshots.
 * @module
 */
import { z } from '@hono/zod-openapi';
import { TRACE_ID_PATTERN } from '../../routes/id-patterns.js';
import {
  ErrorInfoSchema,
  IdSchema,
  JsonObjectSchema,
  OptionalJsonValueSchema,
  scorerVersionIds,
  text,
} from '../core/common-schemas.js';
import { pageSchema } from '../core/paging.js';
import { CaseSchema } from '../datasets/dataset-schemas.js';
import { ResultSchema } from '../runs/run-schemas.js';

/** `POST /api/v1/evals/experiments`. */
export const CreateExperimentSchema = z
  .strictObject({
    name: text(256),
    datasetVersionId: IdSchema.describe('A frozen dataset version'),
    scorerVersionIds: scorerVersionIds(0),
    config: JsonObjectSchema.optional().describe('Handed to the target of every case; default {}'),
  })
  .openapi('CreateExperiment');

/** The answer of experiment creation. */
export const CreatedExperimentSchema = z
  .object({ id: IdSchema, evaluationRunId: IdSchema.describe('The run that scores the executions') })
  .openapi('CreatedExperiment');

/** An experiment. */
export const ExperimentSchema = z
  .object({
    id: IdSchema,
    name: z.string(),
    datasetId: IdSchema,
    datasetVersionId: IdSchema,
    scorerVersionIds: z.array(IdSchema),
    config: JsonObjectSchema,
    evaluationRunId: IdSchema,
    caseCount: z.number().int(),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .openapi('Experiment');

/** Execution states: `started`, then one of the terminal states. */
export const ExecutionStateSchema = z.enum(['started', 'succeeded', 'error', 'cancelled']);

/** An execution: one attempt at one case of an experiment. */
export const ExecutionSchema = z
  .object({
    id: IdSchema,
    experimentId: IdSchema,
    caseId: IdSchema,
    attempt: z.number().int().describe('1 for the first attempt at the case, then 2, 3, …'),
    state: ExecutionStateSchema,
    traceExternalId: z.string().nullable().describe('The OpenTelemetry trace ID of the attempt'),
    previousExecutionId: IdSchema.nullable(),
    replacedByExecutionId: IdSchema.nullable().describe('Set when a later attempt replaced this one'),
    output: OptionalJsonValueSchema.describe('Absent when the target returned nothing'),
    error: ErrorInfoSchema.optional(),
    traceEvidence: z.enum(['required', 'omit']).nullable(),
    omissionReason: z.string().nullable(),
    traceSnapshotId: IdSchema.nullable(),
    subjectId: IdSchema.nullable(),
    evaluationItemId: IdSchema.nullable(),
    startedAt: z.string(),
    completedAt: z.string().nullable(),
  })
  .openapi('Execution');

/** An item of an experiment: a case of its dataset version, with its latest execution. */
export const ExperimentItemSchema = CaseSchema.extend({
  caseId: IdSchema,
  // A union, not `.nullable()`: that would register the `Execution` schema itself as nullable.
  latestExecution: z.union([ExecutionSchema, z.null()]),
}).openapi('ExperimentItem');

export const ExperimentItemPageSchema = pageSchema(ExperimentItemSchema, 'ExperimentItemPage');

const TraceId = z.string().regex(TRACE_ID_PATTERN, 'must be 32 lowercase hex characters, not all zero');

/**
 * The fields of a request that starts an attempt replacing the case's latest execution: the start
 * route's and the managed dispatch's. Check them with {@link withReplacementRule}.
 */
export const replacementFields = {
  previousExecutionId: IdSchema.optional().describe(
    "The case's latest execution, which this attempt replaces",
  ),
  allowUncertainRetry: z
    .boolean()
    .optional()
    .describe('Needed to replace an execution still started (it may have completed)'),
};

/** `schema` (holding {@link replacementFields}) with their rule: allowUncertainRetry needs previousExecutionId. */
export function withReplacementRule<
  S extends z.ZodType<{
    previousExecutionId?: string | undefined;
    allowUncertainRetry?: boolean | undefined;
  }>,
>(schema: S): S {
  return schema.refine(
    (input) => input.allowUncertainRetry !== true || input.previousExecutionId !== undefined,
    { message: 'allowUncertainRetry needs previousExecutionId', path: ['allowUncertainRetry'] },
  );
}

/** `POST …/cases/{caseId}/executions`. */
export const StartExecutionSchema = withReplacementRule(
  z.strictObject({
    traceExternalId: TraceId.optional().describe(
      'The trace of the attempt; needed for traceEvidence: required',
    ),
    ...replacementFields,
  }),
).openapi('StartExecution');

/** `POST …/executions/{executionId}/complete`. */
export const CompleteExecutionSchema = z
  .strictObject({
    state: z.enum(['succeeded', 'error', 'cancelled']),
    output: OptionalJsonValueSchema,
    error: ErrorInfoSchema.optional().describe('Required when state is error; not allowed when succeeded'),
    expectedTraceRevision: z
      .number()
      .int()
      .min(1)
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .describe('With traceEvidence required: the stored trace must have reached this revision'),
    traceEvidence: z.enum(['required', 'omit']).optional(),
    omissionReason: text(1000).optional().describe('Required with traceEvidence: omit'),
  })
  .superRefine((input, ctx) => {
    if (input.state === 'error' && input.error === undefined) {
      ctx.addIssue({ code: 'custom', message: 'is required when state is error', path: ['error'] });
    }
    if (input.state === 'succeeded' && input.error !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'is not allowed when state is succeeded', path: ['error'] });
    }
    if (input.traceEvidence === 'omit' && input.omissionReason === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'is required with traceEvidence: omit',
        path: ['omissionReason'],
      });
    }
    if (input.traceEvidence !== 'omit' && input.omissionReason !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'is allowed only with traceEvidence: omit',
        path: ['omissionReason'],
      });
    }
    if (input.traceEvidence !== 'required' && input.expectedTraceRevision !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'is allowed only with traceEvidence: required',
        path: ['expectedTraceRevision'],
      });
    }
  })
  .openapi('CompleteExecution');

/** The answer of a completion. */
export const CompletionSchema = z
  .object({
    executionId: IdSchema,
    subjectId: IdSchema,
    traceSnapshotId: IdSchema.nullable(),
    evaluationItemId: IdSchema,
  })
  .openapi('ExecutionCompletion');

/** `POST …/finish`: no fields. */
export const FinishExperimentSchema = z.strictObject({}).openapi('FinishExperiment');

/** The answer of finishing an experiment. */
export const FinishedExperimentSchema = z
  .object({ id: IdSchema, finishedAt: z.string() })
  .openapi('FinishedExperiment');

/** The case view of an experiment. */
export const ExperimentCaseSchema = z
  .object({
    experimentId: IdSchema,
    case: CaseSchema,
    executions: z.array(ExecutionSchema).describe('Every attempt, oldest first'),
    results: z.array(ResultSchema).describe('Results of every attempt, oldest first'),
  })
  .openapi('ExperimentCase');

/** A trace snapshot: the stored spans and log records of a trace as of an execution's completion. */
export const TraceSnapshotSchema = z
  .object({
    id: IdSchema,
    traceId: z.string(),
    revision: z.number().int(),
    spanCount: z.number().int(),
    spans: z.array(z.unknown()),
    logs: z.array(z.unknown()),
    createdAt: z.string(),
  })
  .openapi('TraceSnapshot');
