/**
 * Scenarios, runs, trials, local agents and launches, as the evaluation client returns them. A
 * test holds each shape's fields equal to the service's OpenAPI document (`scenario-wire.e2e.test.ts`).
 * @module
 */
import type { JsonValue } from '../scorers/scorer-definitions.js';
import type { ErrorInfo } from './common-types.js';

/** A scenario: its identity (from its newest version) and versions. */
export interface Scenario {
  id: string;
  name: string;
  slug: string;
  description?: string;
  latestVersionId: string;
  versionCount: number;
  createdAt: string;
  /** When the newest version was published. */
  updatedAt: string;
}

/** An agent-visible file of a case. */
export interface ScenarioCaseFile {
  name: string;
  mediaType: string;
  encoding: 'utf8' | 'base64';
  content: string;
  size: number;
  /** Lowercase hex SHA-256 of the bytes. */
  sha256: string;
}

/** A tool as an agent sees it. */
export interface ScenarioTool {
  name: string;
  description: string;
  /** The JSON Schema of its arguments. */
  inputSchema: Record<string, unknown>;
}

/** A version's public part: never the world's data, its tools' effects or the grading. */
export interface ScenarioVersion {
  id: string;
  scenarioId: string;
  number: number;
  name: string;
  slug: string;
  description?: string;
  /** SHA-256 (hex) of the published document's canonical JSON. */
  digest: string;
  /** The registry's frozen dataset version of the cases. */
  datasetVersionId: string;
  tools: ScenarioTool[];
  cases: { key: string; name?: string; inputs: JsonValue; files: ScenarioCaseFile[] }[];
  createdAt: string;
}

/** The answer of `publishScenario`. */
export interface PublishedScenario {
  scenario: Scenario;
  version: ScenarioVersion;
  /** False when the same document was published before: its version is answered. */
  created: boolean;
}

/** Input of `createScenarioRun`. */
export interface CreateScenarioRunInput {
  idempotencyKey: string;
  scenarioVersionId: string;
  /** Default `<name> v<number>`. */
  name?: string;
  /** Trials of each case (k of pass^k), 1 to 100; default 1. */
  trials?: number;
}

/** An outcome of a sealed trial. */
export type TrialOutcome = 'passed' | 'failed' | 'pending' | 'errored';

/** A scenario run's row. */
export interface ScenarioRunRecord {
  id: string;
  scenarioVersionId: string;
  experimentId: string;
  evaluationRunId: string;
  name: string;
  trials: number;
  createdAt: string;
}

/** One trial slot of a case in a run. */
export interface ScenarioTrialSlot {
  trial: number;
  trialId: string | null;
  state: 'not_started' | 'open' | 'sealed';
  outcome: TrialOutcome | null;
  /** Names of the failed checks (never what they expected). */
  failedChecks: string[];
  traceId: string | null;
}

/** A run's summary. */
export interface ScenarioRun extends ScenarioRunRecord {
  scenarioId: string;
  /** The run in the viewer. */
  runUrl: string;
  cases: {
    caseKey: string;
    caseId: string;
    name?: string;
    trials: ScenarioTrialSlot[];
    graded: number;
    passed: number;
    /** pass^k for k = the run's trials; null until every trial is graded. */
    passHatK: number | null;
    verdict: 'PASS' | 'FAIL' | 'ERROR' | null;
  }[];
  totals: {
    cases: number;
    trials: number;
    sealed: number;
    passed: number;
    failed: number;
    errored: number;
    pending: number;
  };
  passHatK: number | null;
  /** True when every trial is sealed and graded. */
  complete: boolean;
}

/** A check of a sealed trial, by name. */
export interface TrialCheck {
  name: string;
  kind: 'state' | 'tool_call' | 'output' | 'llm_judge';
  required: boolean;
  status: 'passed' | 'failed' | 'pending' | 'error';
}

/** A trial. */
export interface Trial {
  id: string;
  runId: string;
  scenarioVersionId: string;
  caseKey: string;
  caseId: string;
  trial: number;
  worldId: string;
  state: 'open' | 'sealed';
  /** True once the world takes no more calls (sealed or expired). */
  closed: boolean;
  traceId: string | null;
  openedAt: string;
  expiresAt: string;
  toolCallCount: number;
  sealedAt: string | null;
  /** SHA-256 (hex) over the canonical JSON of the sealed outcome. */
  seal: string | null;
  executionState: 'succeeded' | 'error' | null;
  output?: JsonValue;
  error?: ErrorInfo;
  finalState?: JsonValue;
  outcome: TrialOutcome | null;
  checks: TrialCheck[];
  failedChecks: string[];
  executionId: string | null;
  evaluationItemId: string | null;
}

/** Input of `startTrial`. */
export interface StartTrialInput {
  idempotencyKey: string;
  caseKey: string;
  /** 1 to the run's trials. */
  trial: number;
  /** The OpenTelemetry trace of the agent's work on the trial (32 lowercase hex). */
  traceId?: string;
}

/** The answer of `startTrial`: the trial, its world and token, what the agent is given. */
export interface StartedTrial {
  trial: Trial;
  /** The world's Bearer token; `null` once the world is closed. A credential: never log it. */
  token: string | null;
  world: { id: string; mcpUrl: string; toolsUrl: string };
  tools: ScenarioTool[];
  inputs: JsonValue;
  files: ScenarioCaseFile[];
}

/** Input of `sealTrial`: the agent's final output, or the error it ended with. */
export interface SealTrialInput {
  idempotencyKey: string;
  output?: JsonValue;
  error?: ErrorInfo;
}

/** What a world's tool answered. */
export type WorldToolResult = { isError: false; value: JsonValue } | { isError: true; message: string };

/** A recorded tool call. */
export interface ToolCall {
  seq: number;
  tool: string;
  arguments: JsonValue;
  result: WorldToolResult;
  at: string;
}

/** A local agent (a worker of `svc eval --worker`). */
export interface LocalAgent {
  id: string;
  name: string;
  agentFile: string;
  host: string;
  startedAt: string;
  registeredAt: string;
  lastSeenAt: string;
  live: boolean;
  stoppedAt: string | null;
  leases: number;
}

/** Input of `registerLocalAgent`. */
export interface RegisterLocalAgentInput {
  idempotencyKey: string;
  name: string;
  agentFile: string;
  host: string;
  startedAt?: string;
}

/** The answer of `registerLocalAgent`. */
export interface RegisteredLocalAgent {
  agent: LocalAgent;
  /** How often to poll. */
  pollIntervalMillis: number;
  /** Without a poll for this long, the worker is not live and its leases lapse. */
  liveMillis: number;
}

/** A launched run. */
export interface Launch {
  id: string;
  runId: string;
  runUrl: string;
  scenarioId: string;
  scenarioVersionId: string;
  trials: number;
  state: 'queued' | 'leased' | 'completed';
  agentId: string | null;
  leaseExpiresAt: string | null;
  leases: number;
  createdAt: string;
  completedAt: string | null;
}

/** The answer of `pollLocalAgent`. */
export interface LocalAgentPoll {
  agent: LocalAgent;
  /** Every launch the worker holds (a new one appears here). */
  leases: Launch[];
}

/** Input of `launchLocalRun`: a scenario (its newest version) or a version. */
export interface LaunchLocalRunInput {
  idempotencyKey: string;
  /** Scenario ID or slug. */
  scenarioId?: string;
  scenarioVersionId?: string;
  trials?: number;
  /** The worker; default a live one the service picks. */
  agentId?: string;
  name?: string;
}

/** The answer of `launchLocalRun`. */
export interface LaunchedRun {
  launch: Launch;
  agent: LocalAgent;
}

/** Input of `releaseLaunch` and `completeLaunch`. */
export interface HeldLaunchInput {
  idempotencyKey: string;
  /** The worker holding the launch. */
  agentId: string;
}
