/**
 * The scenario routes of the registry: publishing and reading scenarios and versions, runs and
 * trials (start, read, tool calls, seal), local agents and launches. Each is registered through
 * the registry's route helper (validation naming the field, the 1 MiB body, idempotency of
 * mutations in their transaction, the 4 MiB answer), tagged `Scenarios`.
 * @module
 */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { GuardedEnv } from '../../auth/route-guard.js';
import { idParam } from '../../evals/core/common-schemas.js';
import { registerEvalRoute } from '../../evals/core/eval-route.js';
import { registerGetRoute, registerPageRoute } from '../../evals/core/read-routes.js';
import { ScenarioDocumentError } from '../document/scenario-document-error.js';
import { ScenarioDocumentSchema } from '../document/scenario-document-schema.js';
import { validateDocument } from '../document/validate-document.js';
import { worldMcpUrl, worldToolsUrl } from '../scenario-links.js';
import { SCENARIO_ROUTE_ACCESS, type ScenarioRouteId } from '../scenario-route-access.js';
import type { Scenarios } from '../scenarios.js';
import { publicVersion } from '../store/scenario-store.js';
import type { Trial } from '../store/trial-rows.js';
import {
  CreateRunSchema,
  HeldLaunchSchema,
  LaunchedSchema,
  LaunchRunSchema,
  LaunchSchema,
  LocalAgentPageSchema,
  LocalAgentSchema,
  PollSchema,
  PublishedSchema,
  RegisterAgentSchema,
  RegisteredAgentSchema,
  RunRecordPageSchema,
  ScenarioPageSchema,
  ScenarioRefParam,
  ScenarioRunSchema,
  ScenarioSchema,
  ScenarioVersionPageSchema,
  ScenarioVersionSchema,
  SealTrialSchema,
  StartedTrialSchema,
  StartTrialSchema,
  ToolCallPageSchema,
  TrialSchema,
} from './scenario-schemas.js';

const TAG = 'Scenarios';

function row(id: ScenarioRouteId) {
  return { id, access: SCENARIO_ROUTE_ACCESS[id], tag: TAG };
}

const ScenarioParams = z.object({ scenarioId: ScenarioRefParam });
const RunParams = z.object({ runId: idParam('runId') });
const TrialParams = z.object({ trialId: idParam('trialId') });
const AgentParams = z.object({ agentId: idParam('agentId') });
const LaunchParams = z.object({ launchId: idParam('launchId') });

/** Registers the scenario routes of `scenarios` on `app`. */
export function registerScenarioRoutes(app: OpenAPIHono<GuardedEnv>, scenarios: Scenarios): void {
  const { registry } = scenarios.options;
  const context = registry.context;
  const wake = (afterCommit: (work: () => void) => void) => () =>
    afterCommit(() => registry.judgeWorker.wake());
  const runSummary = (runId: string, origin: string) => {
    const run = scenarios.runs.record(runId);
    const trials = scenarios.trials.ofRun(runId).map((trialRow) => scenarios.trials.view(trialRow));
    return scenarios.runs.summary(run, trials, origin);
  };

  registerEvalRoute(app, context, {
    ...row('evals.scenarios.publish'),
    summary: 'Publishes a scenario document',
    description:
      'Validates the whole document and answers every problem at once, each with its JSON Pointer path, in error.problems ' +
      '(400 when the document breaks its JSON Schema, 422 when only the rules beyond it). A document differing from every ' +
      'version of its slug makes a new, immutable version; the same document again answers its version (created: false). ' +
      'The grading is sealed: no answer of the service ever shows it again.',
    body: ScenarioDocumentSchema,
    validateBody: (json) => {
      const validation = validateDocument(json);
      if (!validation.ok) throw new ScenarioDocumentError(validation.problems, validation.breaksSchema);
      return validation.document;
    },
    response: PublishedSchema,
    errors: {
      400: 'The document breaks its JSON Schema (invalid_scenario, with error.problems: [{ path, message }]), or a missing Idempotency-Key header',
      422: 'The document keeps to its schema but breaks rules beyond it (invalid_scenario, with error.problems: [{ path, message }]); or the answer would be over 4 MiB',
    },
    handle: ({ body }) => scenarios.scenarios.publish(body),
  });
  registerPageRoute(app, context, {
    ...row('evals.scenarios.list'),
    summary: 'Lists scenarios, oldest first',
    response: ScenarioPageSchema,
    handle: (_params, page) => scenarios.scenarios.listScenarios(page),
  });
  registerGetRoute(app, context, {
    ...row('evals.scenarios.get'),
    summary: 'Reads a scenario (by ID or slug)',
    params: ScenarioParams,
    response: ScenarioSchema,
    missing: 'No such scenario',
    handle: (params) => scenarios.scenarios.getScenario(params.scenarioId),
  });
  registerPageRoute(app, context, {
    ...row('evals.scenarios.versions'),
    summary: "Lists a scenario's versions (public parts), oldest first",
    params: ScenarioParams,
    missing: 'No such scenario',
    response: ScenarioVersionPageSchema,
    handle: (params, page) => scenarios.scenarios.listVersions(params.scenarioId, page),
  });
  registerPageRoute(app, context, {
    ...row('evals.scenarios.runs'),
    summary: "Lists a scenario's runs, oldest first",
    params: ScenarioParams,
    missing: 'No such scenario',
    response: RunRecordPageSchema,
    handle: (params, page) => scenarios.runs.listOfScenario(params.scenarioId, page),
  });
  registerGetRoute(app, context, {
    ...row('evals.scenarioVersions.get'),
    summary: "Reads a scenario version's public part",
    description:
      "The tools (name, description, arguments schema) and the cases (inputs, files): what an agent is given. Never the world's data, the tools' effects or the grading.",
    params: z.object({ versionId: idParam('versionId') }),
    response: ScenarioVersionSchema,
    missing: 'No such scenario version',
    handle: (params) => publicVersion(scenarios.scenarios.record(params.versionId)),
  });
  registerEvalRoute(app, context, {
    ...row('evals.scenarioRuns.create'),
    summary: 'Creates a run of a scenario version',
    description:
      "The run is an experiment of the registry on the version's frozen cases. Start its trials, let the agent work, seal them.",
    body: CreateRunSchema,
    response: ScenarioRunSchema,
    errors: { 404: 'No such scenario version' },
    handle: ({ body, origin }) => runSummary(scenarios.runs.create(body).id, origin),
  });
  registerEvalRoute(app, context, {
    ...row('evals.scenarioRuns.get'),
    summary: "Reads a run's summary: every case's trials, outcomes, failed checks by name, pass^k",
    params: RunParams,
    response: ScenarioRunSchema,
    errors: { 400: 'The ID is not a UUID', 404: 'No such run' },
    handle: ({ params, origin }) => runSummary(params.runId, origin),
  });
  registerEvalRoute(app, context, {
    ...row('evals.trials.start'),
    summary: 'Starts a trial: a fresh world instance of the case, and its token',
    description:
      "Answers the token of the world's tools (Bearer; MCP at world.mcpUrl, plain HTTP at world.toolsUrl), the tools, and what the agent is given (inputs, files). " +
      'A retry with the same idempotency key answers the same trial and token (while its world is open). Each (case, trial) starts once: its agent may have run.',
    params: RunParams,
    body: StartTrialSchema,
    response: StartedTrialSchema,
    errors: {
      404: 'No such run, or the scenario version has no such case',
      409: 'The trial was started already (conflict)',
      422: "trial is past the run's trials",
    },
    handle: ({ params, body }) => scenarios.trials.start(params.runId, body),
    present: (answer, origin) => {
      const trial = answer as Trial;
      const version = scenarios.scenarios.record(trial.scenarioVersionId);
      const item = version.publicPart.cases.find((candidate) => candidate.key === trial.caseKey)!;
      const current = scenarios.trials.get(trial.id);
      return {
        trial: current,
        token: current.closed ? null : scenarios.trials.tokenOf(trial.id),
        world: {
          id: trial.worldId,
          mcpUrl: worldMcpUrl(origin, trial.worldId),
          toolsUrl: worldToolsUrl(origin, trial.worldId),
        },
        tools: version.publicPart.tools,
        inputs: item.inputs,
        files: item.files,
      };
    },
  });
  registerGetRoute(app, context, {
    ...row('evals.trials.get'),
    summary: 'Reads a trial: its state, seal, outcome and checks by name',
    params: TrialParams,
    response: TrialSchema,
    missing: 'No such trial',
    handle: (params) => scenarios.trials.get(params.trialId),
  });
  registerPageRoute(app, context, {
    ...row('evals.trials.toolCalls'),
    summary: "Lists a trial's tool calls, in call order",
    params: TrialParams,
    missing: 'No such trial',
    response: ToolCallPageSchema,
    handle: (params, page) => scenarios.trials.toolCalls(params.trialId, page),
  });
  registerEvalRoute(app, context, {
    ...row('evals.trials.seal'),
    summary: 'Seals a trial and grades it',
    description:
      "Seals the outcome (the final output or error, the world's final state, the tool calls in order) under a SHA-256 seal, closes the world and its token, " +
      "completes the case's execution in the registry and grades it: state, tool-call and output checks at once (one result of the case's check scorer version), " +
      'llm_judge checks as hosted judge jobs (pending until they end). A retry with the same idempotency key answers the same seal; any other seal is refused (already_sealed).',
    params: TrialParams,
    body: SealTrialSchema,
    response: TrialSchema,
    errors: { 404: 'No such trial', 409: 'The trial is sealed already (already_sealed)' },
    handle: ({ params, body, afterCommit }) => scenarios.trials.seal(params.trialId, body, wake(afterCommit)),
  });
  registerEvalRoute(app, context, {
    ...row('evals.localAgents.register'),
    summary: 'Registers a local agent (a worker of svc eval --worker)',
    body: RegisterAgentSchema,
    response: RegisteredAgentSchema,
    handle: ({ body }) => ({
      agent: scenarios.agents.register(body),
      pollIntervalMillis: scenarios.options.pollIntervalMillis,
      liveMillis: scenarios.options.liveMillis,
    }),
  });
  registerPageRoute(app, context, {
    ...row('evals.localAgents.list'),
    summary: 'Lists local agents, oldest first (live says which serve now)',
    response: LocalAgentPageSchema,
    handle: (_params, page) => scenarios.agents.list(page),
  });
  registerEvalRoute(app, context, {
    ...row('evals.localAgents.poll'),
    idempotency: 'none',
    summary: "A worker's poll: its heartbeat, and the launches it holds",
    description:
      "Renews the worker's liveness and its leases; when it holds no launch, leases it the next one it may take. Answers every launch it holds, " +
      'so a lost answer loses nothing: safe to repeat, it takes no Idempotency-Key.',
    params: AgentParams,
    body: z.strictObject({}).openapi('PollLocalAgent'),
    response: PollSchema,
    errors: { 404: 'No such local agent', 409: 'The local agent stopped (conflict): register again' },
    handle: ({ params, origin }) => scenarios.agents.poll(params.agentId, origin),
  });
  registerEvalRoute(app, context, {
    ...row('evals.localAgents.stop'),
    summary: 'Stops a local agent: not live any more; the launches it holds go back to the queue',
    params: AgentParams,
    body: z.strictObject({}).openapi('StopLocalAgent'),
    response: LocalAgentSchema,
    errors: { 404: 'No such local agent' },
    handle: ({ params }) => scenarios.agents.stop(params.agentId),
  });
  registerEvalRoute(app, context, {
    ...row('evals.launches.create'),
    summary: 'Launches a run of a scenario on a live local agent',
    description:
      'Creates the run at once and assigns it to a live worker (agentId, or one the service picks). With no live worker it is refused with the reason (409 no_live_worker) and nothing is made.',
    body: LaunchRunSchema,
    response: LaunchedSchema,
    errors: {
      404: 'No such scenario, version or local agent',
      409: 'No live local agent to serve it (no_live_worker)',
    },
    handle: ({ body, origin }) => scenarios.agents.launch(body, origin),
  });
  registerEvalRoute(app, context, {
    ...row('evals.launches.get'),
    summary: 'Reads a launch',
    params: LaunchParams,
    response: LaunchSchema,
    errors: { 400: 'The ID is not a UUID', 404: 'No such launch' },
    handle: ({ params, origin }) => scenarios.agents.launchById(params.launchId, origin),
  });
  registerEvalRoute(app, context, {
    ...row('evals.launches.release'),
    summary: 'Gives a held launch back to the queue (a worker stopping before its run is done)',
    params: LaunchParams,
    body: HeldLaunchSchema,
    response: LaunchSchema,
    errors: { 404: 'No such launch', 409: 'The worker does not hold the launch (conflict)' },
    handle: ({ params, body, origin }) => scenarios.agents.release(params.launchId, body.agentId, origin),
  });
  registerEvalRoute(app, context, {
    ...row('evals.launches.complete'),
    summary: 'Completes a held launch: its run is done',
    params: LaunchParams,
    body: HeldLaunchSchema,
    response: LaunchSchema,
    errors: { 404: 'No such launch', 409: 'The worker does not hold the launch (conflict)' },
    handle: ({ params, body, origin }) => scenarios.agents.complete(params.launchId, body.agentId, origin),
  });
}
