/**
 * `get_experiment` and `get_experiment_item`: an experiment and a page of its items (each case
 * with its latest execution), and one item whole (the case, every execution of it and their
 * results) — as `GET /api/v1/evals/experiments/{id}` with `…/items` and `…/cases/{caseId}` answer
 * them — content gated and fitted to the answer budget.
 * @module
 */
import type { Execution, ExperimentItem } from '../../evals/experiments/experiment-store.js';
import { valueCut } from '../budget/answer-cut.js';
import { fitWholeAnswer, type WholeAnswer } from '../budget/whole-answer.js';
import { defineTool } from '../define-tool.js';
import { withoutFileBytes } from '../file-bytes.js';
import type { McpSources } from '../mcp-sources.js';
import { count, renderCuts, type StructuredAnswer, toolAnswer } from '../tool-answer.js';
import { decodeCursor, encodeCursor, type ToolCursor } from '../tool-cursor.js';
import { ToolInputError } from '../tool-input-error.js';
import { cursorInput, includeContentInput, limitInput, maxTokensInput, uuidInput } from '../tool-inputs.js';
import { CASE_CONTENT, EXECUTION_CONTENT, gateContent, RESULT_CONTENT } from './eval-content-gate.js';
import { pagedAnswer, registryOf } from './list-registry-tools.js';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './registry-page.js';

function gatedExecution(execution: Execution | null, includeContent: boolean) {
  return execution === null ? null : gateContent(execution, EXECUTION_CONTENT, includeContent);
}

function contentNote(included: boolean): string {
  return included
    ? 'Recorded content included.'
    : 'Recorded content withheld (inputs, expected, metadata, outputs, explanations: sizes in withheld); call with include_content: true to read it.';
}

function renderExperiment(answer: StructuredAnswer, included: boolean): string {
  const experiment = answer.experiment as {
    id: string;
    name: string;
    caseCount: number;
    finishedAt: string | null;
  };
  const items = answer.items as (ExperimentItem & { latestExecution: Execution | null })[];
  return [
    `Experiment ${experiment.id} ${JSON.stringify(String(experiment.name).slice(0, 80))}: ${count(experiment.caseCount)} cases, ${experiment.finishedAt === null ? 'not finished' : `finished ${experiment.finishedAt}`}.`,
    contentNote(included),
    `Items shown: ${count(items.length)}.${answer.nextPage === undefined ? '' : ' More: call nextPage.'} Read one whole with get_experiment_item.`,
    ...renderCuts(answer),
    ...items.map(
      (item) =>
        `- case ${item.caseId} ${JSON.stringify(String(item.externalKey).slice(0, 60))}: ${item.latestExecution?.state ?? 'no execution'}`,
    ),
  ].join('\n');
}

/** `get_experiment`. */
export function getExperimentTool(sources: McpSources) {
  return defineTool({
    name: 'get_experiment',
    title: 'Get an experiment',
    description:
      'An evaluation experiment (dataset version, scorer versions, config, case count, evaluation run, finished) and a page of its items: each case with its latest execution (state, output, error). Recorded content only with include_content: true. Follow nextPage for more items; get_experiment_item for one item with its results.',
    input: {
      experiment_id: uuidInput('Experiment ID'),
      include_content: includeContentInput,
      limit: limitInput(MAX_PAGE_LIMIT, DEFAULT_PAGE_LIMIT),
      cursor: cursorInput,
      max_tokens: maxTokensInput,
    },
    async run(args) {
      const registry = registryOf(sources);
      const experimentId = args.experiment_id.toLowerCase();
      const experiment = registry.experiments.get(experimentId);
      const included = args.include_content;
      return pagedAnswer({
        tool: 'get_experiment',
        list: (request) => registry.experiments.listItems(experimentId, request),
        args,
        fixed: { experiment_id: experimentId, ...(included ? { include_content: true } : {}) },
        head: { experiment },
        headValues: [
          ['experiment', 'config'],
          ['experiment', 'name'],
        ],
        ids: { experimentId },
        show: (item) =>
          withoutFileBytes({
            ...gateContent(item, CASE_CONTENT, included),
            latestExecution: gatedExecution(item.latestExecution, included),
          }),
        standIn: (_path, item, position) => {
          const { caseId } = item as { caseId: string };
          const characters = JSON.stringify(item).length;
          return {
            item: { caseId, partial: true, characters },
            cut: valueCut(`/items/${position}`, 0, characters, {
              tool: 'get_experiment_item',
              arguments: {
                experiment_id: experimentId,
                case_id: caseId,
                ...(included ? { include_content: true } : {}),
              },
            }),
          };
        },
        render: (answer) => renderExperiment(answer, included),
      });
    },
  });
}

function renderItem(answer: StructuredAnswer, included: boolean): string {
  const window = answer.window as { at: string; from: number; to: number; characters: number } | undefined;
  if (window !== undefined) {
    return [
      `Experiment ${String(answer.experimentId)}, case ${String(answer.caseId)}: ${window.at} as text, characters ${count(window.from)}-${count(window.to)} of ${count(window.characters)}.`,
      ...renderCuts(answer),
    ].join('\n');
  }
  const executions = (answer.executions ?? []) as Execution[];
  const results = (answer.results ?? []) as {
    scorerVersionId: string;
    status: string;
    metrics?: { name: string; value: unknown; passed?: boolean }[];
  }[];
  const item = answer.case as { id: string; externalKey: string };
  return [
    `Case ${item.id} ${JSON.stringify(String(item.externalKey).slice(0, 60))} of experiment ${String(answer.experimentId)}: ${count(executions.length)} executions, ${count(results.length)} results.`,
    contentNote(included),
    ...renderCuts(answer),
    ...executions.map(
      (execution) => `- execution ${execution.id} attempt ${execution.attempt}: ${execution.state}`,
    ),
    ...results.map(
      (result) =>
        `- result (scorer version ${result.scorerVersionId}): ${result.status}${(result.metrics ?? []).map((metric) => ` ${metric.name}=${JSON.stringify(metric.value)}${metric.passed === undefined ? '' : metric.passed ? ' (pass)' : ' (fail)'}`).join(',')}`,
    ),
  ].join('\n');
}

/** `get_experiment_item`. */
export function getExperimentItemTool(sources: McpSources) {
  return defineTool({
    name: 'get_experiment_item',
    title: 'Get an experiment item',
    description:
      'One item of an experiment whole: the case (inputs, expected, metadata, pinned files), every execution of it (state, output, error, trace snapshot) and their scorer results (status, metrics, explanation). Recorded content only with include_content: true. Over budget, follow cuts[].next.',
    input: {
      experiment_id: uuidInput('Experiment ID'),
      case_id: uuidInput('Case ID (caseId of an item of get_experiment)'),
      include_content: includeContentInput,
      cursor: cursorInput,
      max_tokens: maxTokensInput,
    },
    async run(args) {
      const registry = registryOf(sources);
      const cursor = args.cursor === undefined ? undefined : decodeCursor(args.cursor);
      if (cursor !== undefined && ('page' in cursor || 'recorded' in cursor)) {
        throw new ToolInputError(
          "cursor: not a cursor of get_experiment_item; copy it from a get_experiment_item answer's cuts[].next",
        );
      }
      const experimentId = args.experiment_id.toLowerCase();
      const caseId = args.case_id.toLowerCase();
      const included = args.include_content;
      const view = registry.experiments.caseView(experimentId, caseId);
      const results = registry.results.ofExecutions(view.executions.map((execution) => execution.id));
      const call = (next: ToolCursor) => ({
        tool: 'get_experiment_item',
        arguments: {
          experiment_id: experimentId,
          case_id: caseId,
          ...(included ? { include_content: true } : {}),
          cursor: encodeCursor(next),
          ...(args.max_tokens === undefined ? {} : { max_tokens: args.max_tokens }),
        },
      });
      const whole: WholeAnswer = {
        whole: withoutFileBytes({
          experimentId,
          case: gateContent(view.case, CASE_CONTENT, included),
          executions: view.executions.map((execution) => gatedExecution(execution, included)),
          results: results.map((result) => gateContent(result, RESULT_CONTENT, included)),
        }),
        lists: [['executions'], ['results'], ['case', 'files']],
        headValues: [
          ['case', 'inputs'],
          ['case', 'expected'],
          ['case', 'metadata'],
          ['case', 'externalKey'],
        ],
        ids: { experimentId, caseId },
        call,
      };
      return toolAnswer({
        maxTokens: args.max_tokens,
        fit: (room) =>
          fitWholeAnswer(whole, room, cursor as Extract<ToolCursor, { list: string } | { value: string }>),
        render: (answer) => renderItem(answer, included),
      });
    },
  });
}
