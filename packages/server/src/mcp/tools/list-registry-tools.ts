/**
 * `list_datasets` and `list_scorers`: the registry's datasets and scorers (name, slug,
 * description, latest version, version count), as `GET /api/v1/evals/datasets` and
 * `GET /api/v1/evals/scorers` answer them, a page at a time, fitted to the answer budget.
 * @module
 */
import type { Page, PageRequest } from '../../evals/core/paging.js';
import type { EvalRegistry } from '../../evals/eval-registry.js';
import type { NextCall } from '../budget/answer-cut.js';
import { fitWholeAnswer, type WholeAnswer } from '../budget/whole-answer.js';
import { defineTool } from '../define-tool.js';
import type { McpSources } from '../mcp-sources.js';
import { count, renderCuts, type StructuredAnswer, toolAnswer } from '../tool-answer.js';
import { encodeCursor } from '../tool-cursor.js';
import { ToolInputError } from '../tool-input-error.js';
import { cursorInput, limitInput, maxTokensInput } from '../tool-inputs.js';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, registryPage } from './registry-page.js';

/** The registry, or the error saying this server has none. */
export function registryOf(sources: McpSources): EvalRegistry {
  if (sources.evals === undefined) {
    throw new ToolInputError('This server does not serve the evaluation registry.');
  }
  return sources.evals;
}

interface Identity {
  id: string;
  name: string;
  slug: string;
  versionCount: number;
}

/** A paged listing of the registry, as a tool answer. */
export async function pagedAnswer<T>(options: {
  tool: string;
  list: (request: PageRequest) => Page<T>;
  args: { cursor?: string | undefined; limit?: number | undefined; max_tokens?: number | undefined };
  /** Arguments of the tool besides the page ones. */
  fixed?: Record<string, unknown>;
  /** The answer's head besides the page (for example the experiment). */
  head?: Record<string, unknown>;
  headValues?: WholeAnswer['headValues'];
  ids?: Record<string, unknown>;
  /** Items as shown (content gated). */
  show?: (item: T) => unknown;
  standIn?: WholeAnswer['standIn'];
  render: (answer: StructuredAnswer) => string;
}) {
  const { tool, args } = options;
  const read = registryPage(tool, options.list, args.cursor, args.limit);
  const call = (cursor: string): NextCall => ({
    tool,
    arguments: {
      ...options.fixed,
      limit: read.limit,
      cursor,
      ...(args.max_tokens === undefined ? {} : { max_tokens: args.max_tokens }),
    },
  });
  const pageCall = (registryCursor: string) => call(encodeCursor({ page: registryCursor }));
  const nextPage = read.page.nextCursor === null ? undefined : pageCall(read.page.nextCursor);
  const items = options.show === undefined ? read.page.items : read.page.items.map(options.show);
  const whole: WholeAnswer = {
    whole: { ...options.head, items, ...(nextPage === undefined ? {} : { nextPage }) },
    lists: [['items']],
    ...(options.headValues === undefined ? {} : { headValues: options.headValues }),
    ids: options.ids ?? {},
    call: (cursor) => call(encodeCursor(cursor)),
    listNext: (_path, position) => pageCall(read.cursorAfter(position)),
    ...(options.standIn === undefined ? {} : { standIn: options.standIn }),
  };
  return toolAnswer({
    maxTokens: args.max_tokens,
    fit: (room) => {
      const fitted = fitWholeAnswer(whole, room);
      if (!fitted.cuts.some((cut) => cut.kind === 'list' && cut.at === '/items')) return fitted;
      // A cut inside the page continues it; nextPage would skip what the cut left out.
      const { nextPage: _next, ...answer } = fitted.answer;
      return { answer, cuts: fitted.cuts };
    },
    render: options.render,
  });
}

function renderIdentities(kind: string) {
  return (answer: StructuredAnswer): string => {
    const items = answer.items as Identity[];
    return [
      `${count(items.length)} ${kind}.${answer.nextPage === undefined ? '' : ' More: call nextPage.'}`,
      ...renderCuts(answer),
      ...items.map(
        (item) =>
          `- ${item.id} ${JSON.stringify(item.name.slice(0, 80))} (${item.slug}), ${count(item.versionCount)} versions`,
      ),
    ].join('\n');
  };
}

const pageInput = {
  limit: limitInput(MAX_PAGE_LIMIT, DEFAULT_PAGE_LIMIT),
  cursor: cursorInput,
  max_tokens: maxTokensInput,
};

/** `list_datasets`. */
export function listDatasetsTool(sources: McpSources) {
  return defineTool({
    name: 'list_datasets',
    title: 'List datasets',
    description:
      'Datasets of the evaluation registry, oldest first: ID, name, slug, description, latest version ID and version count. Follow nextPage for more.',
    input: pageInput,
    run: async (args) => {
      const registry = registryOf(sources);
      return pagedAnswer({
        tool: 'list_datasets',
        list: (request) => registry.datasets.listDatasets(request),
        args,
        render: renderIdentities('datasets'),
      });
    },
  });
}

/** `list_scorers`. */
export function listScorersTool(sources: McpSources) {
  return defineTool({
    name: 'list_scorers',
    title: 'List scorers',
    description:
      'Scorers of the evaluation registry, oldest first: ID, name, slug, description, latest version ID and version count (not their definitions). Follow nextPage for more.',
    input: pageInput,
    run: async (args) => {
      const registry = registryOf(sources);
      return pagedAnswer({
        tool: 'list_scorers',
        list: (request) => registry.scorers.listScorers(request),
        args,
        render: renderIdentities('scorers'),
      });
    },
  });
}
