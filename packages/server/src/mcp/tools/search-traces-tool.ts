/**
 * `search_traces`: traces newest first, filtered — the read model's `searchTraces`, as the read
 * API's `GET /api/v1/traces` answers it — a page at a time, fitted to the answer budget.
 * @module
 */
import { z } from 'zod';
import type { TraceListItem, TraceSearchFilter } from '../../read/search-traces.js';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from '../../read/search-traces.js';
import { type NextCall, valueCut } from '../budget/answer-cut.js';
import { fitWholeAnswer, type WholeAnswer } from '../budget/whole-answer.js';
import { defineTool } from '../define-tool.js';
import type { McpSources } from '../mcp-sources.js';
import { count, renderCuts, type StructuredAnswer, toolAnswer } from '../tool-answer.js';
import { decodeCursor, encodeCursor } from '../tool-cursor.js';
import { ToolInputError } from '../tool-input-error.js';
import { cursorInput, limitInput, maxTokensInput } from '../tool-inputs.js';

const text = (max: number) => z.string().min(1).max(max);

const isoDateTime = z.iso.datetime({ offset: true });
/** An ISO 8601 time with a zone; checked here rather than by a long pattern in the tool list. */
const time = (description: string) =>
  z
    .string()
    .refine(
      (value) => isoDateTime.safeParse(value).success,
      'must be an ISO 8601 time with a zone, like 2026-05-01T12:00:00Z',
    )
    .meta({ format: 'date-time' })
    .optional()
    .describe(description);

const input = {
  from: time('Traces starting at or after this time (ISO 8601)'),
  to: time('Traces starting before this time (ISO 8601)'),
  service: text(256).optional().describe('service.name, exactly'),
  span_name: text(256).optional().describe('Part of a span name, any case'),
  session_id: text(4096).optional().describe('Session ID, exactly'),
  user_id: text(4096).optional().describe('User ID, exactly'),
  model: text(256).optional().describe('Model name, exactly'),
  has_error: z.boolean().optional().describe('true: only traces with an error; false: only without'),
  min_duration_ms: z.number().min(0).max(1e12).optional().describe('Minimum trace duration in ms'),
  attribute_key: text(256).optional().describe('With attribute_value: a span or resource attribute'),
  attribute_value: z.string().max(256).optional().describe('The exact value of attribute_key'),
  limit: limitInput(MAX_SEARCH_LIMIT, DEFAULT_SEARCH_LIMIT),
  cursor: cursorInput,
  max_tokens: maxTokensInput,
};

type Args = z.output<z.ZodObject<typeof input>>;

function unixNano(iso: string): bigint {
  return BigInt(Date.parse(iso)) * 1_000_000n;
}

function filterOf(args: Args): TraceSearchFilter {
  if ((args.attribute_key === undefined) !== (args.attribute_value === undefined)) {
    throw new ToolInputError('attribute_key and attribute_value go together: give both or neither.');
  }
  return {
    ...(args.from === undefined ? {} : { fromUnixNano: unixNano(args.from) }),
    ...(args.to === undefined ? {} : { toUnixNano: unixNano(args.to) }),
    ...(args.service === undefined ? {} : { service: args.service }),
    ...(args.span_name === undefined ? {} : { spanName: args.span_name }),
    ...(args.session_id === undefined ? {} : { sessionId: args.session_id }),
    ...(args.user_id === undefined ? {} : { userId: args.user_id }),
    ...(args.model === undefined ? {} : { model: args.model }),
    ...(args.has_error === undefined ? {} : { hasError: args.has_error }),
    ...(args.min_duration_ms === undefined ? {} : { minDurationMs: args.min_duration_ms }),
    ...(args.attribute_key === undefined || args.attribute_value === undefined
      ? {}
      : { attribute: { key: args.attribute_key, value: args.attribute_value } }),
  };
}

function render(answer: StructuredAnswer): string {
  const items = answer.items as TraceListItem[];
  const lines = [
    `${count(items.length)} traces, newest first.${answer.nextPage === undefined ? '' : ' More: call nextPage.'} Read one with get_trace.`,
    ...renderCuts(answer),
    ...items.map(
      (item) =>
        `- ${item.traceId} ${item.startTime} ${JSON.stringify(item.rootName?.slice(0, 60) ?? null)}: ${count(item.spanCount)} spans, ${count(item.errorCount)} errors, ${item.durationMs.toFixed(1)} ms, tokens ${count(item.inputTokens)}/${count(item.outputTokens)}`,
    ),
  ];
  return lines.join('\n');
}

/** The tool. */
export function searchTracesTool(sources: McpSources) {
  return defineTool({
    name: 'search_traces',
    title: 'Search traces',
    description:
      'Find traces, newest first, by time range, service, span name, session, user, model, error, duration or an attribute value (filters combine with AND). Answers one row per trace (ID, root span name, start, duration, span and error counts, tokens, sessions, users); follow nextPage for more. Then get_trace.',
    input,
    async run(args) {
      const filter = filterOf(args);
      const cursor = args.cursor === undefined ? undefined : decodeCursor(args.cursor);
      if (cursor !== undefined && !('page' in cursor)) {
        throw new ToolInputError(
          "cursor: not a cursor of search_traces; copy it from a search_traces answer's nextPage or cuts[].next",
        );
      }
      const after = cursor?.page;
      const limit = args.limit ?? DEFAULT_SEARCH_LIMIT;
      const page = await sources.readModel.searchTraces(filter, {
        ...(after === undefined ? {} : { after }),
        limit,
      });
      const { cursor: _cursor, max_tokens: _maxTokens, ...rest } = args;
      const call = (pageCursor: string, pageLimit: number): NextCall => ({
        tool: 'search_traces',
        arguments: {
          ...Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)),
          limit: pageLimit,
          cursor: encodeCursor({ page: pageCursor }),
          ...(args.max_tokens === undefined ? {} : { max_tokens: args.max_tokens }),
        },
      });
      const nextPage = page.nextCursor === null ? undefined : call(page.nextCursor, limit);
      const whole: WholeAnswer = {
        whole: { items: page.items, ...(nextPage === undefined ? {} : { nextPage }) },
        lists: [['items']],
        ids: {},
        call: () => {
          throw new ToolInputError('search_traces has no value cursors');
        },
        // Patched once fitted (the cursor after the last trace shown is the read model's).
        listNext: () => ({ tool: 'search_traces', arguments: {} }),
        standIn: (_path, item, position) => {
          const trace = item as TraceListItem;
          const characters = JSON.stringify(trace).length;
          return {
            item: { traceId: trace.traceId, partial: true, characters },
            cut: valueCut(`/items/${position}`, 0, characters, {
              tool: 'get_trace',
              arguments: { trace_id: trace.traceId },
            }),
          };
        },
      };
      return toolAnswer({
        maxTokens: args.max_tokens,
        fit: async (room) => {
          const fitted = fitWholeAnswer(whole, room);
          const cut = fitted.cuts.find((c) => c.kind === 'list' && c.at === '/items');
          if (cut === undefined) return fitted;
          // The rest of this page: the traces after the last one shown, in a page of the same limit.
          const shown = await sources.readModel.searchTraces(filter, {
            ...(after === undefined ? {} : { after }),
            limit: cut.from,
          });
          cut.next = call(shown.nextCursor ?? '', limit);
          const { nextPage: _next, ...answer } = fitted.answer;
          return { answer, cuts: fitted.cuts };
        },
        render,
      });
    },
  });
}
