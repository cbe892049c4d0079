/**
 * `get_trace`: a trace's outline — its summary and its spans without attribute values — the read
 * model's `traceOutline`, as the read API's `GET /api/v1/traces/{traceId}` answers it, fitted to
 * the answer budget: spans in start order as many as fit, and a cut with the cursor of the next.
 * @module
 */
import type { OutlineSpan, TraceOutline } from '../../read/read-model-types.js';
import { valueCut } from '../budget/answer-cut.js';
import { fitWholeAnswer, type WholeAnswer } from '../budget/whole-answer.js';
import { defineTool } from '../define-tool.js';
import type { McpSources } from '../mcp-sources.js';
import { count, renderCuts, type StructuredAnswer, toolAnswer } from '../tool-answer.js';
import { decodeCursor, encodeCursor, type ToolCursor } from '../tool-cursor.js';
import { ToolInputError } from '../tool-input-error.js';
import { cursorInput, maxTokensInput, traceIdInput } from '../tool-inputs.js';

const SUMMARY_LISTS = ['sessions', 'users', 'services', 'models'] as const;

function spanLine(span: OutlineSpan): string {
  const facts = [
    `${span.durationMs.toFixed(1)} ms`,
    span.error ? `ERROR${span.errorType === undefined ? '' : ` ${span.errorType}`}` : undefined,
    span.model,
    span.inputTokens === undefined && span.outputTokens === undefined
      ? undefined
      : `tokens ${span.inputTokens ?? 0}/${span.outputTokens ?? 0}`,
    span.fileCount > 0 ? `${span.fileCount} files` : undefined,
  ].filter((fact) => fact !== undefined);
  return `- ${span.spanId} ${JSON.stringify(span.name.slice(0, 80))} parent=${span.parentSpanId ?? 'root'} (${facts.join(', ')})`;
}

function render(answer: StructuredAnswer): string {
  const window = answer.window as { at: string; from: number; to: number; characters: number } | undefined;
  if (window !== undefined) {
    return [
      `Trace ${String(answer.traceId)}: ${window.at} as text, characters ${count(window.from)}-${count(window.to)} of ${count(window.characters)}.`,
      ...renderCuts(answer),
    ].join('\n');
  }
  const summary = answer.summary as TraceOutline['summary'];
  const spans = (answer.spans ?? []) as OutlineSpan[];
  const lines = [
    `Trace ${summary.traceId}: root ${JSON.stringify(summary.rootName?.slice(0, 80) ?? null)}, ${count(summary.spanCount)} spans, ${count(summary.errorCount)} errors, ${summary.durationMs.toFixed(1)} ms, tokens ${count(summary.inputTokens)} in / ${count(summary.outputTokens)} out.`,
    `Spans shown: ${count(spans.length)}${answer.onlyList === undefined ? '' : ` (only ${String(answer.onlyList)})`}. Read one span whole with get_span.`,
    ...renderCuts(answer),
    ...spans.slice(0, 12).map(spanLine),
  ];
  if (spans.length > 12) lines.push(`… ${count(spans.length - 12)} more spans in the structured answer.`);
  return lines.join('\n');
}

/** The tool. */
export function getTraceTool(sources: McpSources) {
  return defineTool({
    name: 'get_trace',
    title: 'Get a trace outline',
    description:
      "A trace's outline: summary (duration, span and error counts, tokens per model, sessions, users, services) and its spans in start order without attribute values (IDs, parent, name, kind, times, status, model, tokens, event/log/file counts). Large traces come in parts: follow cuts[].next. Then read a span with get_span.",
    input: { trace_id: traceIdInput, cursor: cursorInput, max_tokens: maxTokensInput },
    async run(args) {
      const cursor = args.cursor === undefined ? undefined : decodeCursor(args.cursor);
      if (cursor !== undefined && !('list' in cursor) && !('value' in cursor)) {
        throw new ToolInputError(
          "cursor: not a cursor of get_trace; copy it from a get_trace answer's cuts[].next",
        );
      }
      const after = cursor !== undefined && 'list' in cursor && cursor.list === '/spans' ? cursor.from : 0;
      const outline = await sources.readModel.traceOutline(args.trace_id, { after });
      if (after > 0 && outline.spans.length === 0)
        throw new ToolInputError('cursor: past the end of the list');
      const call = (next: ToolCursor) => ({
        tool: 'get_trace',
        arguments: {
          trace_id: args.trace_id,
          cursor: encodeCursor(next),
          ...(args.max_tokens === undefined ? {} : { max_tokens: args.max_tokens }),
        },
      });
      const whole: WholeAnswer = {
        whole: { traceId: args.trace_id, summary: outline.summary, spans: outline.spans },
        lists: [['spans']],
        headValues: [['summary', 'rootName'], ...SUMMARY_LISTS.map((list) => ['summary', list])],
        ids: { traceId: args.trace_id },
        call,
        extent: (path) =>
          path[0] === 'spans' ? { start: after, total: outline.summary.spanCount } : undefined,
        // A span too large to list (a huge name): its detail reads it, in windows if need be.
        standIn: (_path, item, position) => {
          const span = item as OutlineSpan;
          const characters = JSON.stringify(span).length;
          return {
            item: { spanId: span.spanId, parentSpanId: span.parentSpanId, partial: true, characters },
            cut: valueCut(`/spans/${position}`, 0, characters, {
              tool: 'get_span',
              arguments: { trace_id: args.trace_id, span_id: span.spanId },
            }),
          };
        },
      };
      return toolAnswer({
        maxTokens: args.max_tokens,
        fit: (room) =>
          fitWholeAnswer(whole, room, cursor as Extract<ToolCursor, { list: string } | { value: string }>),
        render,
      });
    },
  });
}
