/**
 * `list_scenarios`, `get_scenario`, `list_local_agents` and `launch_local_run`: the scenarios of
 * the registry (their public parts only: the grading is sealed and no tool reads it), the local
 * agents serving launched runs, and a launch on a live one — with the answer budget and content
 * gating of the other tools.
 * @module
 */
import { z } from 'zod';
import type { Scenarios } from '../../scenarios/scenarios.js';
import { publicVersion } from '../../scenarios/store/scenario-store.js';
import { inTransaction } from '../../store/sqlite-database.js';
import { fitWholeAnswer, type WholeAnswer } from '../budget/whole-answer.js';
import { defineTool } from '../define-tool.js';
import { withoutFileBytes } from '../file-bytes.js';
import type { McpRequestContext, McpSources } from '../mcp-sources.js';
import { count, renderCuts, type StructuredAnswer, toolAnswer } from '../tool-answer.js';
import { decodeCursor, encodeCursor, type ToolCursor } from '../tool-cursor.js';
import { ToolInputError } from '../tool-input-error.js';
import { cursorInput, includeContentInput, limitInput, maxTokensInput, uuidInput } from '../tool-inputs.js';
import { gateContent } from './eval-content-gate.js';
import { pagedAnswer } from './list-registry-tools.js';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './registry-page.js';

function scenariosOf(sources: McpSources): Scenarios {
  if (sources.scenarios === undefined) throw new ToolInputError('This server does not serve scenarios.');
  return sources.scenarios;
}

const scenarioInput = z
  .string()
  .regex(
    /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[a-z0-9]+(?:-[a-z0-9]+)*)$/,
    'must be a scenario ID or slug',
  )
  .max(64)
  .describe('Scenario ID or slug');

const versionInput = z.number().int().min(1).optional().describe('Version number; default the newest');

const pageInput = {
  limit: limitInput(MAX_PAGE_LIMIT, DEFAULT_PAGE_LIMIT),
  cursor: cursorInput,
  max_tokens: maxTokensInput,
};

/** `list_scenarios`. */
export function listScenariosTool(sources: McpSources) {
  return defineTool({
    name: 'list_scenarios',
    title: 'List scenarios',
    description:
      'Scenarios (simulated worlds, sealed grading), oldest first: ID, name, slug, latest version. get_scenario for one.',
    input: pageInput,
    run: async (args) => {
      const scenarios = scenariosOf(sources);
      return pagedAnswer({
        tool: 'list_scenarios',
        list: (request) => scenarios.scenarios.listScenarios(request),
        args,
        render: (answer) => {
          const items = answer.items as { id: string; name: string; slug: string; versionCount: number }[];
          return [
            `${count(items.length)} scenarios.${answer.nextPage === undefined ? '' : ' More: call nextPage.'}`,
            ...renderCuts(answer),
            ...items.map(
              (item) =>
                `- ${item.id} ${JSON.stringify(item.name.slice(0, 80))} (${item.slug}), ${count(item.versionCount)} versions`,
            ),
          ].join('\n');
        },
      });
    },
  });
}

/** `get_scenario`. */
export function getScenarioTool(sources: McpSources) {
  return defineTool({
    name: 'get_scenario',
    title: 'Get a scenario',
    description:
      "A scenario version's public part: tools (name, description, arguments schema) and cases (key, inputs, file digests). Never its world data or grading (sealed).",
    input: {
      scenario: scenarioInput,
      version: versionInput,
      include_content: includeContentInput,
      cursor: cursorInput,
      max_tokens: maxTokensInput,
    },
    async run(args) {
      const scenarios = scenariosOf(sources);
      const cursor = args.cursor === undefined ? undefined : decodeCursor(args.cursor);
      if (cursor !== undefined && ('page' in cursor || 'recorded' in cursor)) {
        throw new ToolInputError(
          "cursor: not a cursor of get_scenario; copy it from a get_scenario answer's cuts[].next",
        );
      }
      const record = scenarios.scenarios.versionOf(args.scenario, args.version);
      const version = publicVersion(record);
      const included = args.include_content;
      const scenario = scenarios.scenarios.getScenario(record.scenarioId);
      const call = (next: ToolCursor) => ({
        tool: 'get_scenario',
        arguments: {
          scenario: scenario.id,
          version: record.number,
          ...(included ? { include_content: true } : {}),
          cursor: encodeCursor(next),
          ...(args.max_tokens === undefined ? {} : { max_tokens: args.max_tokens }),
        },
      });
      const whole: WholeAnswer = {
        whole: withoutFileBytes({
          scenario,
          version: {
            id: version.id,
            number: version.number,
            digest: version.digest,
            createdAt: version.createdAt,
          },
          tools: version.tools,
          cases: version.cases.map((item) =>
            gateContent(
              { ...item, files: item.files.map(({ content: _bytes, encoding: _encoding, ...file }) => file) },
              ['inputs'],
              included,
            ),
          ),
        }),
        lists: [['tools'], ['cases']],
        headValues: [
          ['scenario', 'description'],
          ['scenario', 'name'],
        ],
        ids: { scenarioId: scenario.id, versionId: version.id },
        call,
      };
      return toolAnswer({
        maxTokens: args.max_tokens,
        fit: (room) =>
          fitWholeAnswer(whole, room, cursor as Extract<ToolCursor, { list: string } | { value: string }>),
        render: (answer: StructuredAnswer) => {
          const tools = (answer.tools ?? []) as { name: string }[];
          const cases = (answer.cases ?? []) as { key: string }[];
          return [
            `Scenario ${scenario.id} ${JSON.stringify(scenario.name.slice(0, 80))} (${scenario.slug}) version ${record.number}: ${count(tools.length)} tools, ${count(cases.length)} cases shown. Its grading is sealed.`,
            included
              ? 'Case inputs included.'
              : 'Case inputs withheld (sizes in withheld); call with include_content: true to read them.',
            ...renderCuts(answer),
            ...tools.map((tool) => `- tool ${tool.name}`),
            ...cases.map((item) => `- case ${item.key}`),
          ].join('\n');
        },
      });
    },
  });
}

/** `list_local_agents`. */
export function listLocalAgentsTool(sources: McpSources) {
  return defineTool({
    name: 'list_local_agents',
    title: 'List local agents',
    description:
      'Local agents (svc eval --worker), oldest first: name, agent file, host, last seen, live. Live ones serve launch_local_run.',
    input: pageInput,
    run: async (args) => {
      const scenarios = scenariosOf(sources);
      return pagedAnswer({
        tool: 'list_local_agents',
        list: (request) => scenarios.agents.list(request),
        args,
        render: (answer) => {
          const items = answer.items as {
            id: string;
            name: string;
            host: string;
            live: boolean;
            lastSeenAt: string;
          }[];
          return [
            `${count(items.length)} local agents, ${count(items.filter((item) => item.live).length)} live.${answer.nextPage === undefined ? '' : ' More: call nextPage.'}`,
            ...renderCuts(answer),
            ...items.map(
              (item) =>
                `- ${item.id} ${JSON.stringify(item.name.slice(0, 60))} on ${JSON.stringify(item.host.slice(0, 60))}: ${item.live ? 'live' : `not live, last seen ${item.lastSeenAt}`}`,
            ),
          ].join('\n');
        },
      });
    },
  });
}

/** `launch_local_run`. */
export function launchLocalRunTool(sources: McpSources, context: McpRequestContext) {
  return defineTool({
    name: 'launch_local_run',
    title: 'Launch a scenario run',
    description:
      'Runs a scenario on a live local agent (given or picked); answers the run ID and URL, or why not (no live agent). Results: get_experiment.',
    input: {
      scenario: scenarioInput,
      version: versionInput,
      trials: z
        .number()
        .int()
        .min(1)
        .max(100)
        .optional()
        .describe('Trials of each case (k of pass^k), 1-100; default 1'),
      agent_id: uuidInput('Local agent ID (list_local_agents); default a live one').optional(),
      max_tokens: maxTokensInput,
    },
    annotations: { readOnlyHint: false, idempotentHint: false },
    async run(args) {
      const scenarios = scenariosOf(sources);
      const { launch, agent } = inTransaction(scenarios.options.registry.context.db, () => {
        const record = scenarios.scenarios.versionOf(args.scenario, args.version);
        return scenarios.agents.launch(
          {
            scenarioVersionId: record.id,
            trials: args.trials,
            agentId: args.agent_id?.toLowerCase(),
          },
          sources.publicOrigin ?? context.origin,
        );
      });
      const run = scenarios.runs.record(launch.runId);
      const answer = {
        runId: launch.runId,
        runUrl: launch.runUrl,
        experimentId: run.experimentId,
        launchId: launch.id,
        scenarioVersionId: launch.scenarioVersionId,
        trials: launch.trials,
        agent: { id: agent.id, name: agent.name, host: agent.host },
      };
      return toolAnswer({
        maxTokens: args.max_tokens,
        fit: () => ({ answer, cuts: [] }),
        render: (structured) =>
          [
            `Launched run ${launch.runId} (${count(launch.trials)} trials per case) on ${JSON.stringify(agent.name.slice(0, 60))}: ${launch.runUrl}`,
            `Its results: get_experiment with experiment_id ${run.experimentId}.`,
            ...renderCuts(structured),
          ].join('\n'),
      });
    },
  });
}
