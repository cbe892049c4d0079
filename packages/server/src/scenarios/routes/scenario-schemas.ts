/**
 * Schemas of the scenario routes' requests and answers (validation and the OpenAPI document).
 * @module
 */
import { z } from '@hono/zod-openapi';
import {
  ErrorInfoSchema,
  IdSchema,
  JsonValueSchema,
  OptionalJsonValueSchema,
  SlugSchema,
  text,
} from '../../evals/core/common-schemas.js';
import { pageSchema } from '../../evals/core/paging.js';
import { TRACE_ID_PATTERN } from '../../routes/id-patterns.js';
import { CaseKeySchema } from '../document/scenario-document-schema.js';
import { MAX_RUN_TRIALS } from '../store/run-store.js';

/** A scenario by its ID or its slug, in a path. */
export const ScenarioRefParam = z.union([IdSchema, SlugSchema]).openapi({
  param: { name: 'scenarioId', in: 'path' },
  description: 'The scenario ID, or its slug',
  example: 'customer-support',
});

const Scenario = z
  .object({
    id: IdSchema,
    name: z.string(),
    slug: z.string(),
    description: z.string().optional(),
    latestVersionId: IdSchema,
    versionCount: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string().describe('When the newest version was published'),
  })
  .openapi('Scenario');

const CaseFile = z
  .object({
    name: z.string(),
    mediaType: z.string(),
    encoding: z.enum(['utf8', 'base64']),
    content: z.string(),
    size: z.number().int(),
    sha256: z.string(),
  })
  .openapi('ScenarioCaseFile');

const PublicTool = z
  .object({ name: z.string(), description: z.string(), inputSchema: z.record(z.string(), z.unknown()) })
  .openapi('ScenarioTool');

const PublicCase = z
  .object({
    key: z.string(),
    name: z.string().optional(),
    inputs: JsonValueSchema,
    files: z.array(CaseFile),
  })
  .openapi('ScenarioCase');

/** A version's public part: never the world's data, its tools' effects or the sealed grading. */
export const ScenarioVersionSchema = z
  .object({
    id: IdSchema,
    scenarioId: IdSchema,
    number: z.number().int(),
    name: z.string(),
    slug: z.string(),
    description: z.string().optional(),
    digest: z.string().describe("SHA-256 (hex) of the published document's canonical JSON"),
    datasetVersionId: IdSchema.describe("The registry's frozen dataset version of the cases"),
    tools: z.array(PublicTool),
    cases: z.array(PublicCase),
    createdAt: z.string(),
  })
  .openapi('ScenarioVersion');

export { Scenario as ScenarioSchema };

export const ScenarioPageSchema = pageSchema(Scenario, 'ScenarioPage');
export const ScenarioVersionPageSchema = pageSchema(ScenarioVersionSchema, 'ScenarioVersionPage');

/** The answer of a publish. */
export const PublishedSchema = z
  .object({
    scenario: Scenario,
    version: ScenarioVersionSchema,
    created: z.boolean().describe('False when this document was published before: its version is answered'),
  })
  .openapi('PublishedScenario');

const Trials = z.number().int().min(1).max(MAX_RUN_TRIALS);

/** `POST /api/v1/evals/scenario-runs`. */
export const CreateRunSchema = z
  .strictObject({
    scenarioVersionId: IdSchema,
    name: text(256).optional(),
    trials: Trials.optional().describe('Trials of each case (k of pass^k); default 1'),
  })
  .openapi('CreateScenarioRun');

const Outcome = z.enum(['passed', 'failed', 'pending', 'errored']);

const RunRecordSchema = z.object({
  id: IdSchema,
  scenarioVersionId: IdSchema,
  experimentId: IdSchema,
  evaluationRunId: IdSchema,
  name: z.string(),
  trials: z.number().int(),
  createdAt: z.string(),
});

export const RunRecordPageSchema = pageSchema(
  RunRecordSchema.openapi('ScenarioRunRecord'),
  'ScenarioRunPage',
);

/** A run's summary. */
export const ScenarioRunSchema = z
  .object({
    id: IdSchema,
    name: z.string(),
    scenarioId: IdSchema,
    scenarioVersionId: IdSchema,
    experimentId: IdSchema.describe('The registry experiment of the run (get_experiment shows it)'),
    evaluationRunId: IdSchema,
    trials: z.number().int(),
    createdAt: z.string(),
    runUrl: z.string().describe('The run in the viewer'),
    cases: z.array(
      z.object({
        caseKey: z.string(),
        caseId: IdSchema,
        name: z.string().optional(),
        trials: z.array(
          z.object({
            trial: z.number().int(),
            trialId: IdSchema.nullable(),
            state: z.enum(['not_started', 'open', 'sealed']),
            outcome: Outcome.nullable(),
            failedChecks: z
              .array(z.string())
              .describe('Names of the failed checks (never what they expected)'),
            traceId: z.string().nullable(),
          }),
        ),
        graded: z.number().int(),
        passed: z.number().int(),
        passHatK: z.number().nullable().describe('pass^k for k = trials; null until every trial is graded'),
        verdict: z.enum(['PASS', 'FAIL', 'ERROR']).nullable(),
      }),
    ),
    totals: z.object({
      cases: z.number().int(),
      trials: z.number().int(),
      sealed: z.number().int(),
      passed: z.number().int(),
      failed: z.number().int(),
      errored: z.number().int(),
      pending: z.number().int(),
    }),
    passHatK: z.number().nullable(),
    complete: z.boolean(),
  })
  .openapi('ScenarioRun');

/** `POST …/scenario-runs/{runId}/trials`. */
export const StartTrialSchema = z
  .strictObject({
    caseKey: CaseKeySchema,
    trial: Trials.describe("The trial's index for its case, 1 to the run's trials"),
    traceId: z
      .string()
      .regex(TRACE_ID_PATTERN, 'must be 32 lowercase hex characters, not all zero')
      .optional()
      .describe("The OpenTelemetry trace of the agent's work on the trial"),
  })
  .openapi('StartTrial');

const CheckResultSchema = z.object({
  name: z.string(),
  kind: z.enum(['state', 'tool_call', 'output', 'llm_judge']),
  required: z.boolean(),
  status: z.enum(['passed', 'failed', 'pending', 'error']),
});

/** A trial. */
export const TrialSchema = z
  .object({
    id: IdSchema,
    runId: IdSchema,
    scenarioVersionId: IdSchema,
    caseKey: z.string(),
    caseId: IdSchema,
    trial: z.number().int(),
    worldId: IdSchema,
    state: z.enum(['open', 'sealed']),
    closed: z.boolean().describe('True once the world takes no more calls (sealed or expired)'),
    traceId: z.string().nullable(),
    openedAt: z.string(),
    expiresAt: z.string().describe('The world takes calls until then (the trial can be sealed after)'),
    toolCallCount: z.number().int(),
    sealedAt: z.string().nullable(),
    seal: z.string().nullable().describe('SHA-256 (hex) over the canonical JSON of the sealed outcome'),
    executionState: z.enum(['succeeded', 'error']).nullable(),
    output: OptionalJsonValueSchema,
    error: ErrorInfoSchema.optional(),
    finalState: OptionalJsonValueSchema.describe("The world's state as sealed"),
    outcome: Outcome.nullable(),
    checks: z.array(CheckResultSchema).describe('By name, once sealed; what a check expected is never shown'),
    failedChecks: z.array(z.string()),
    executionId: IdSchema.nullable(),
    evaluationItemId: IdSchema.nullable(),
  })
  .openapi('Trial');

/** The answer of a trial's start: the trial, its world and token, and what the agent is given. */
export const StartedTrialSchema = z
  .object({
    trial: TrialSchema,
    token: z
      .string()
      .nullable()
      .describe(
        "The trial token (Bearer) of the world's tools and MCP endpoint; null once the world is closed",
      ),
    world: z.object({
      id: IdSchema,
      mcpUrl: z.string().describe('The world as an MCP server (Streamable HTTP)'),
      toolsUrl: z.string().describe('The world tools over plain HTTP: GET lists, POST …/{name} calls'),
    }),
    tools: z.array(PublicTool),
    inputs: JsonValueSchema,
    files: z.array(CaseFile),
  })
  .openapi('StartedTrial');

/** `POST …/trials/{trialId}/seal`. */
export const SealTrialSchema = z
  .strictObject({
    output: OptionalJsonValueSchema.describe("The agent's final output; omit when it returned nothing"),
    error: ErrorInfoSchema.optional().describe('The error the agent ended with, instead of an output'),
  })
  .refine((input) => input.output === undefined || input.error === undefined, {
    message: 'give output or error, not both',
    path: ['error'],
  })
  .openapi('SealTrial');

/** A recorded tool call. */
export const ToolCallSchema = z
  .object({
    seq: z.number().int(),
    tool: z.string(),
    arguments: JsonValueSchema,
    result: z.union([
      z.object({ isError: z.literal(false), value: JsonValueSchema }),
      z.object({ isError: z.literal(true), message: z.string() }),
    ]),
    at: z.string(),
  })
  .openapi('ToolCall');

export const ToolCallPageSchema = pageSchema(ToolCallSchema, 'ToolCallPage');

/** `POST /api/v1/evals/local-agents`. */
export const RegisterAgentSchema = z
  .strictObject({
    name: text(256),
    agentFile: text(1024).describe('The agent file the worker serves'),
    host: text(256),
    startedAt: z.iso.datetime({ offset: true }).optional().describe('When the worker started; default now'),
  })
  .openapi('RegisterLocalAgent');

const LocalAgentSchema = z
  .object({
    id: IdSchema,
    name: z.string(),
    agentFile: z.string(),
    host: z.string(),
    startedAt: z.string(),
    registeredAt: z.string(),
    lastSeenAt: z.string(),
    live: z.boolean(),
    stoppedAt: z.string().nullable(),
    leases: z.number().int(),
  })
  .openapi('LocalAgent');

export { LocalAgentSchema };

/** The answer of a registration: the agent and how to serve. */
export const RegisteredAgentSchema = z
  .object({
    agent: LocalAgentSchema,
    pollIntervalMillis: z.number().int().describe('How often to poll'),
    liveMillis: z
      .number()
      .int()
      .describe('Without a poll for this long, the worker is not live and its leases lapse'),
  })
  .openapi('RegisteredLocalAgent');

export const LocalAgentPageSchema = pageSchema(LocalAgentSchema, 'LocalAgentPage');

export const LaunchSchema = z
  .object({
    id: IdSchema,
    runId: IdSchema,
    runUrl: z.string(),
    scenarioId: IdSchema,
    scenarioVersionId: IdSchema,
    trials: z.number().int(),
    state: z.enum(['queued', 'leased', 'completed']),
    agentId: IdSchema.nullable(),
    leaseExpiresAt: z.string().nullable(),
    leases: z.number().int(),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
  })
  .openapi('Launch');

/** The answer of a poll. */
export const PollSchema = z
  .object({
    agent: LocalAgentSchema,
    leases: z.array(LaunchSchema).describe('Every launch this worker holds (a new one appears here)'),
  })
  .openapi('LocalAgentPoll');

/** `POST /api/v1/evals/launches`. */
export const LaunchRunSchema = z
  .strictObject({
    scenarioId: z
      .union([IdSchema, SlugSchema])
      .optional()
      .describe('The scenario (ID or slug); its newest version runs'),
    scenarioVersionId: IdSchema.optional().describe('A version to run instead of the newest'),
    trials: Trials.optional().describe('Trials of each case; default 1'),
    agentId: IdSchema.optional().describe('The worker to serve it; default a live worker the service picks'),
    name: text(256).optional(),
  })
  .refine((input) => input.scenarioId !== undefined || input.scenarioVersionId !== undefined, {
    message: 'give scenarioId or scenarioVersionId',
    path: ['scenarioId'],
  })
  .openapi('LaunchRun');

/** The answer of a launch. */
export const LaunchedSchema = z
  .object({ launch: LaunchSchema, agent: LocalAgentSchema })
  .openapi('LaunchedRun');

/** `POST …/launches/{launchId}/release` and `…/complete`. */
export const HeldLaunchSchema = z
  .strictObject({ agentId: IdSchema.describe('The worker holding the launch') })
  .openapi('HeldLaunch');

/** A world tool's result. */
export const ToolResultSchema = z
  .union([
    z.object({ isError: z.literal(false), value: JsonValueSchema }),
    z.object({ isError: z.literal(true), message: z.string() }),
  ])
  .openapi('WorldToolResult');

/** The tools of a world. */
export const WorldToolsSchema = z.object({ tools: z.array(PublicTool) }).openapi('WorldTools');
