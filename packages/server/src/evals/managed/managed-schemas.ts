/**
 * Schemas of managed targets: target registration, dispatches, claims, output files and outcomes.
 * @module
 */
import { z } from '@hono/zod-openapi';
import { TRACE_ID_PATTERN } from '../../routes/id-patterns.js';
import {
  ErrorInfoSchema,
  IdSchema,
  JsonObjectSchema,
  JsonValueSchema,
  OptionalJsonValueSchema,
  text,
} from '../core/common-schemas.js';
import { MAX_CASE_FILES } from '../core/eval-limits.js';
import {
  ExecutionSchema,
  replacementFields,
  withReplacementRule,
} from '../experiments/experiment-schemas.js';
import { CreateArtifactSchema, caseFileFields } from '../files/case-file-schemas.js';

/** Longest target URL, in UTF-16 code units. */
export const MAX_TARGET_URL = 2048;

function isTargetUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.username === '' &&
    url.password === '' &&
    url.hash === '' &&
    !value.includes('#')
  );
}

/** `POST /api/v1/evals/managed-targets`. */
export const CreateManagedTargetSchema = z
  .strictObject({
    name: text(256),
    url: z
      .string()
      .max(MAX_TARGET_URL)
      .refine(isTargetUrl, 'must be an absolute http(s) URL without credentials or fragment')
      .describe(
        "The application's managed-target endpoint: the service POSTs signed execution requests to it",
      ),
  })
  .openapi('CreateManagedTarget');

/** A managed target: the application's own endpoint that runs one case per request. */
export const ManagedTargetSchema = z
  .object({ id: IdSchema, name: z.string(), url: z.string(), createdAt: z.string() })
  .openapi('ManagedTarget');

/** `POST …/experiments/{experimentId}/cases/{caseId}/dispatch`. */
export const DispatchSchema = withReplacementRule(
  z.strictObject({
    targetId: IdSchema.describe('The managed target that runs the case'),
    ...replacementFields,
  }),
).openapi('Dispatch');

/** States of a dispatch: the request to the target is in flight, answered, or could not be delivered. */
export const DispatchStateSchema = z.enum(['delivering', 'delivered', 'failed']);

/** The machine-readable code of the managed handler's error answers, for example `already_claimed`. */
const HANDLER_ERROR_CODE = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * What a dispatch keeps of the target's JSON answer: the fields of the managed handler's answer
 * (`@svc-run/sdk/managed`'s summary, or the code of its error answer), each only when it has the
 * handler's type. Anything else the target sent is dropped, so a target URL cannot be used to
 * read another service's answer back through the dispatch (see the README, "Managed targets").
 */
export const DispatchAnswerSchema = z
  .object({
    executionId: IdSchema.optional(),
    state: z.enum(['succeeded', 'error', 'cancelled']).optional(),
    outcomeSaved: z.boolean().optional(),
    outputFiles: z.number().int().min(0).max(MAX_CASE_FILES).optional(),
    telemetryFlushed: z.boolean().optional(),
    error: z
      .object({ code: z.string().regex(HANDLER_ERROR_CODE) })
      .optional()
      .describe("The code of the handler's error answer (its message is not kept)"),
  })
  .openapi('ManagedDispatchAnswer');

/** A dispatch: the delivery of one execution to a managed target. */
export const DispatchRecordSchema = z
  .object({
    id: IdSchema,
    targetId: IdSchema,
    executionId: IdSchema,
    state: DispatchStateSchema,
    responseStatus: z.number().int().nullable().describe("The target's HTTP status, once it answered"),
    // A union, not `.nullable()`: that would register `ManagedDispatchAnswer` itself as nullable.
    response: z
      .union([DispatchAnswerSchema, z.null()])
      .describe(
        "The managed handler's fields of the target's JSON answer (an answer of up to 16 KiB, a JSON object), else null",
      ),
    failure: z.string().nullable().describe('Why the request could not be delivered (state failed)'),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .openapi('ManagedDispatch');

/** The answer of a dispatch: the dispatch (state `delivering`) and the execution it started. */
export const DispatchedSchema = z
  .object({ dispatch: DispatchRecordSchema, execution: ExecutionSchema })
  .openapi('ManagedDispatched');

const TraceId = z.string().regex(TRACE_ID_PATTERN, 'must be 32 lowercase hex characters, not all zero');

/** `POST …/executions/{executionId}/claim`. */
export const ClaimSchema = z
  .strictObject({
    traceId: TraceId.optional().describe(
      "The trace the target's work is recorded in; becomes the execution's traceExternalId when it has none",
    ),
  })
  .openapi('ClaimExecution');

/** An input file of a claimed case, with its signed download link. */
export const ClaimFileSchema = z
  .object({
    ...caseFileFields,
    url: z.string().describe('Signed download link; send no Authorization'),
    expiresAt: z.string(),
  })
  .openapi('ClaimFile');

/** The answer of a claim: what the target runs. */
export const ClaimAnswerSchema = z
  .object({
    claimId: IdSchema.describe('Names the claim in the output-file and outcome requests'),
    executionId: IdSchema,
    experimentId: IdSchema,
    caseId: IdSchema,
    attempt: z.number().int(),
    traceId: z.string().nullable().describe("The execution's trace (traceExternalId)"),
    inputs: JsonValueSchema,
    config: JsonObjectSchema.describe("The experiment's configuration"),
    files: z
      .array(ClaimFileSchema)
      .describe('The case files the agent sees (roles source, attached_*, original)'),
  })
  .openapi('ClaimedExecution');

/** `POST …/executions/{executionId}/output-files`: an artifact for an output file of the claimed execution. */
export const OutputFileDeclarationSchema = z
  .strictObject({ ...CreateArtifactSchema.shape, claimId: IdSchema })
  .openapi('DeclareOutputFile');

/** Usage the target reports: token counts and cost, each optional. */
export const UsageSchema = z
  .strictObject({
    inputTokens: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    outputTokens: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    totalTokens: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    reasoningTokens: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    cachedInputTokens: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    costUsd: z.number().min(0).optional(),
  })
  .openapi('ManagedUsage');

/** `POST …/executions/{executionId}/outcome`. */
export const OutcomeSchema = z
  .strictObject({
    claimId: IdSchema,
    state: z.enum(['succeeded', 'error', 'cancelled']),
    output: OptionalJsonValueSchema,
    error: ErrorInfoSchema.optional().describe('Required when state is error; not allowed when succeeded'),
    files: z
      .array(z.strictObject({ artifactId: IdSchema }))
      .max(MAX_CASE_FILES)
      .optional()
      .describe('Output files: stored artifacts declared through output-files'),
    usage: UsageSchema.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.state === 'error' && input.error === undefined) {
      ctx.addIssue({ code: 'custom', message: 'is required when state is error', path: ['error'] });
    }
    if (input.state === 'succeeded' && input.error !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'is not allowed when state is succeeded', path: ['error'] });
    }
    const ids = (input.files ?? []).map((file) => file.artifactId);
    if (new Set(ids).size !== ids.length) {
      ctx.addIssue({ code: 'custom', message: 'must not repeat an artifact', path: ['files'] });
    }
  })
  .openapi('SaveOutcome');

/** An output file of an execution. */
export const OutputFileSchema = z
  .object({
    name: z.string(),
    contentType: z.string(),
    sha256: z.string(),
    size: z.number().int(),
    artifactId: IdSchema,
  })
  .openapi('OutputFile');

/** The answer of a saved outcome: the completion, and the output files kept. */
export const OutcomeAnswerSchema = z
  .object({
    executionId: IdSchema,
    subjectId: IdSchema,
    traceSnapshotId: IdSchema.nullable(),
    evaluationItemId: IdSchema,
    outputFiles: z.array(OutputFileSchema),
  })
  .openapi('SavedOutcome');

/** What the service knows of a managed execution: its dispatch, its claim and its outcome's extras. */
export const ManagedExecutionSchema = z
  .object({
    executionId: IdSchema,
    dispatchId: IdSchema,
    targetId: IdSchema,
    claimedAt: z.string().nullable(),
    outcomeSavedAt: z.string().nullable(),
    usage: UsageSchema.nullable(),
    outputFiles: z.array(OutputFileSchema),
  })
  .openapi('ManagedExecution');
