import { describe, expect, it } from 'vitest';
import type {
  Launch,
  LaunchedRun,
  LocalAgent,
  LocalAgentPoll,
  PublishedScenario,
  RegisteredLocalAgent,
  Scenario,
  ScenarioCaseFile,
  ScenarioRun,
  ScenarioRunRecord,
  ScenarioTool,
  ScenarioVersion,
  StartedTrial,
  ToolCall,
  Trial,
} from '../types/scenario-types.js';
import { useEvalServer } from './__fixtures__/eval-server.js';

// The drift check of the scenario types: each SDK type's fields (listed here, and held to the type
// by the compiler: a field added to or missing from the type fails to compile) are the fields the
// service's OpenAPI document states for the same answer.
const evals = useEvalServer();

type Fields<T> = { readonly [K in keyof Required<T>]: true };

const fields = <T>(list: Fields<T>) => Object.keys(list).sort();

const WIRE: Record<string, string[]> = {
  Scenario: fields<Scenario>({
    id: true,
    name: true,
    slug: true,
    description: true,
    latestVersionId: true,
    versionCount: true,
    createdAt: true,
    updatedAt: true,
  }),
  ScenarioCaseFile: fields<ScenarioCaseFile>({
    name: true,
    mediaType: true,
    encoding: true,
    content: true,
    size: true,
    sha256: true,
  }),
  ScenarioTool: fields<ScenarioTool>({ name: true, description: true, inputSchema: true }),
  ScenarioVersion: fields<ScenarioVersion>({
    id: true,
    scenarioId: true,
    number: true,
    name: true,
    slug: true,
    description: true,
    digest: true,
    datasetVersionId: true,
    tools: true,
    cases: true,
    createdAt: true,
  }),
  PublishedScenario: fields<PublishedScenario>({ scenario: true, version: true, created: true }),
  ScenarioRunRecord: fields<ScenarioRunRecord>({
    id: true,
    scenarioVersionId: true,
    experimentId: true,
    evaluationRunId: true,
    name: true,
    trials: true,
    createdAt: true,
  }),
  ScenarioRun: fields<ScenarioRun>({
    id: true,
    name: true,
    scenarioId: true,
    scenarioVersionId: true,
    experimentId: true,
    evaluationRunId: true,
    trials: true,
    createdAt: true,
    runUrl: true,
    cases: true,
    totals: true,
    passHatK: true,
    complete: true,
  }),
  Trial: fields<Trial>({
    id: true,
    runId: true,
    scenarioVersionId: true,
    caseKey: true,
    caseId: true,
    trial: true,
    worldId: true,
    state: true,
    closed: true,
    traceId: true,
    openedAt: true,
    expiresAt: true,
    toolCallCount: true,
    sealedAt: true,
    seal: true,
    executionState: true,
    output: true,
    error: true,
    finalState: true,
    outcome: true,
    checks: true,
    failedChecks: true,
    executionId: true,
    evaluationItemId: true,
  }),
  StartedTrial: fields<StartedTrial>({
    trial: true,
    token: true,
    world: true,
    tools: true,
    inputs: true,
    files: true,
  }),
  ToolCall: fields<ToolCall>({ seq: true, tool: true, arguments: true, result: true, at: true }),
  LocalAgent: fields<LocalAgent>({
    id: true,
    name: true,
    agentFile: true,
    host: true,
    startedAt: true,
    registeredAt: true,
    lastSeenAt: true,
    live: true,
    stoppedAt: true,
    leases: true,
  }),
  RegisteredLocalAgent: fields<RegisteredLocalAgent>({
    agent: true,
    pollIntervalMillis: true,
    liveMillis: true,
  }),
  Launch: fields<Launch>({
    id: true,
    runId: true,
    runUrl: true,
    scenarioId: true,
    scenarioVersionId: true,
    trials: true,
    state: true,
    agentId: true,
    leaseExpiresAt: true,
    leases: true,
    createdAt: true,
    completedAt: true,
  }),
  LocalAgentPoll: fields<LocalAgentPoll>({ agent: true, leases: true }),
  LaunchedRun: fields<LaunchedRun>({ launch: true, agent: true }),
};

describe('the scenario types of the SDK', () => {
  it.each(Object.keys(WIRE))('%s has the fields the OpenAPI document states', async (name) => {
    const res = await fetch(`${evals.server.origin}/api/v1/openapi.json`, {
      headers: { authorization: `Bearer ${evals.server.keys.read}` },
    });
    const doc = (await res.json()) as {
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    const component = doc.components.schemas[name];
    expect(component, `component ${name}`).toBeDefined();
    expect(Object.keys(component!.properties ?? {}).sort()).toEqual(WIRE[name]);
  });
});
