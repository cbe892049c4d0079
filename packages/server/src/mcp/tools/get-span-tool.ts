/**
 * `get_span`: one span's detail — the read model's `spanDetail`, as the read API's
 * `GET /api/v1/traces/{traceId}/spans/{spanId}` answers it — fitted to the answer budget: the
 * span's head, then its lists in this order as far as they fit (files, remote references, large
 * values, messages, attributes, events, logs, links, resource, scope), each cut stated with the
 * cursor of its continuation. `sections` narrows the answer to some lists; a `recorded` cursor reads
 * a value the read model showed only the start of (over 64 KiB) whole, in windows.
 *
 * The log list is the span's whole list of correlated log records, which the read model answers a
 * page at a time (`logsFrom`): a position in it (a list cursor's `from`, a pointer `/logs/<i>…`, a
 * `recorded` cursor's index) is the record's index in the whole list, and the call continuing the
 * list reads the read model's page starting there, so following the cuts reaches every record.
 * @module
 */
import { z } from 'zod';
import type { MessageView, SpanDetail, SpanFileView } from '../../read/read-model-types.js';
import { type AnswerPath, fitWholeAnswer, type WholeAnswer, windowAnswer } from '../budget/whole-answer.js';
import { defineTool } from '../define-tool.js';
import { withoutFileBytes, withoutFileBytesInText } from '../file-bytes.js';
import { fileUri } from '../file-uri.js';
import type { McpSources } from '../mcp-sources.js';
import { count, renderCuts, type StructuredAnswer, toolAnswer } from '../tool-answer.js';
import { decodeCursor, encodeCursor, type ToolCursor } from '../tool-cursor.js';
import { ToolInputError } from '../tool-input-error.js';
import {
  cursorInput,
  includeContentInput,
  maxTokensInput,
  spanIdInput,
  traceIdInput,
} from '../tool-inputs.js';
import { spanDetailCuts } from './span-detail-cuts.js';

/** The lists of a span detail by section name, in the order they get room. */
const SECTIONS = {
  files: ['files'],
  remote_references: ['remoteReferences'],
  large_values: ['largeValues'],
  messages: ['messages'],
  attributes: ['attributes'],
  events: ['events'],
  logs: ['logs'],
  links: ['links'],
  resource: ['resource'],
  scope: ['scope', 'attributes'],
} as const satisfies Record<string, AnswerPath>;

type Section = keyof typeof SECTIONS;
const SECTION_NAMES = Object.keys(SECTIONS) as [Section, ...Section[]];

const HEAD_VALUES: readonly AnswerPath[] = [
  ['span', 'name'],
  ['span', 'statusMessage'],
  ['span', 'traceState'],
  ['span', 'errorType'],
  ['span', 'model'],
  ['scope', 'name'],
  ['scope', 'version'],
  ['messageAttributes'],
];

/** `/logs/<i>`, and what follows it, in a value cursor's pointer. */
const LOG_POINTER = /^\/logs\/(0|[1-9]\d*)(?:\/|$)/;

/**
 * The first log record (its index in the span's whole list) the call's cursor needs: where a
 * `/logs` list cursor continues, or the record a value cursor's pointer reads; 0 otherwise.
 */
function logsFromOf(cursor: ToolCursor | undefined): number {
  if (cursor === undefined) return 0;
  if ('list' in cursor) return cursor.list === '/logs' ? cursor.from : 0;
  if ('value' in cursor) {
    const index = LOG_POINTER.exec(cursor.value)?.[1];
    return index === undefined ? 0 : Number(index);
  }
  return 0;
}

/** The detail without the lists not asked for. */
function narrowed(detail: SpanDetail, sections: readonly Section[] | undefined): Record<string, unknown> {
  if (sections === undefined) return { ...detail };
  const whole: Record<string, unknown> = { ...detail, scope: { ...detail.scope } };
  for (const name of SECTION_NAMES) {
    if (sections.includes(name)) continue;
    const [key, inner] = SECTIONS[name] as readonly string[];
    if (inner === undefined) delete whole[key!];
    else delete (whole[key!] as Record<string, unknown>)[inner];
  }
  return whole;
}

function partLine(part: MessageView['parts'][number]): string {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return part.text === undefined
        ? `[${part.type}, ${count(part.size)} bytes withheld]`
        : JSON.stringify(part.text.slice(0, 120));
    case 'file':
      return `[file ${part.file.contentType} ${count(part.file.size)} B ${part.file.state}]`;
    case 'remote':
      return `[remote ${part.reference.kind}]`;
    case 'tool_call':
      return `[tool call ${part.name}${part.arguments === undefined ? '' : ` ${JSON.stringify(part.arguments).slice(0, 80)}`}]`;
    case 'tool_result':
      return `[tool result${part.name === undefined ? '' : ` ${part.name}`}: ${part.parts.map(partLine).join(' ')}]`;
    default:
      return `[${part.type}, ${count(part.size)} bytes${part.withheld === true ? ' withheld' : ''}]`;
  }
}

function render(answer: StructuredAnswer): string {
  const window = answer.window as { at: string; from: number; to: number; characters: number } | undefined;
  if (window !== undefined) {
    return [
      `Span ${String(answer.spanId)} of trace ${String(answer.traceId)}: ${window.at} as text, characters ${count(window.from)}-${count(window.to)} of ${count(window.characters)}.`,
      ...renderCuts(answer),
    ].join('\n');
  }
  const detail = answer as unknown as SpanDetail & { onlyList?: string };
  const { span } = detail;
  const lists = (Object.values(SECTIONS) as readonly AnswerPath[])
    .map((path) => {
      const list = path.reduce<unknown>(
        (node, key) => (node as Record<string, unknown> | undefined)?.[key],
        detail,
      );
      return Array.isArray(list) ? `${path.join('.')} ${list.length}` : undefined;
    })
    .filter((line) => line !== undefined);
  const files = (detail.files ?? []) as SpanFileView[];
  return [
    `Span ${span.spanId} ${JSON.stringify(span.name.slice(0, 80))} of trace ${detail.traceId}: ${span.kind}, ${span.status}${span.error ? ' (error)' : ''}, ${span.durationMs.toFixed(1)} ms${span.model === undefined ? '' : `, ${span.model}`}.`,
    `Recorded content ${detail.contentIncluded ? 'included' : 'withheld (only presence and size; call with include_content: true to read it)'}.`,
    `Shown${detail.onlyList === undefined ? '' : ` (only ${detail.onlyList})`}: ${lists.join(', ')}.`,
    ...renderCuts(answer),
    ...((detail.messages ?? []) as MessageView[])
      .slice(0, 8)
      .map(
        (message) =>
          `- ${message.direction} ${message.role}: ${message.parts.map(partLine).join(' ').slice(0, 200)}`,
      ),
    ...files
      .slice(0, 8)
      .map(
        (file) =>
          `- file ${file.sha256.slice(0, 12)}… ${file.contentType} ${count(file.size)} B, ${file.state}${file.state === 'stored' ? ` (resource ${fileUri(detail.traceId, file.sha256)})` : ''}`,
      ),
  ].join('\n');
}

/** The tool. */
export function getSpanTool(sources: McpSources) {
  return defineTool({
    name: 'get_span',
    title: 'Get a span',
    description:
      'One span whole: messages normalized across conventions, files with state (stored, not uploaded, unavailable; read a stored image/audio file as resource svc://traces/{traceId}/files/{sha256}), remote references, large values (prefix + size), attributes, events, links, correlated logs. Recorded content only with include_content: true. Over budget, the rest comes in parts: follow cuts[].next. sections narrows to some lists.',
    input: {
      trace_id: traceIdInput,
      span_id: spanIdInput,
      include_content: includeContentInput,
      sections: z
        .array(z.enum(SECTION_NAMES))
        .min(1)
        .max(SECTION_NAMES.length)
        .optional()
        .describe('Only these lists (the span head always comes); default all'),
      cursor: cursorInput,
      max_tokens: maxTokensInput,
    },
    async run(args) {
      const cursor = args.cursor === undefined ? undefined : decodeCursor(args.cursor);
      if (cursor !== undefined && 'page' in cursor) {
        throw new ToolInputError(
          "cursor: not a cursor of get_span; copy it from a get_span answer's cuts[].next",
        );
      }
      const sections = args.sections === undefined ? undefined : [...new Set(args.sections)];
      const call = (next: ToolCursor) => ({
        tool: 'get_span',
        arguments: {
          trace_id: args.trace_id,
          span_id: args.span_id,
          ...(args.include_content ? { include_content: true } : {}),
          ...(sections === undefined ? {} : { sections }),
          cursor: encodeCursor(next),
          ...(args.max_tokens === undefined ? {} : { max_tokens: args.max_tokens }),
        },
      });
      const ids = { traceId: args.trace_id, spanId: args.span_id };
      if (cursor !== undefined && 'recorded' in cursor) {
        const recorded = cursor.recorded;
        const value = await sources.readModel.recordedValue(args.trace_id, args.span_id, recorded, {
          includeContent: args.include_content,
        });
        if (value.text === undefined) {
          throw new ToolInputError(
            'This value is recorded content: call with include_content: true to read it.',
          );
        }
        // File bytes in the value (a data: URL, long base64) are replaced window by window.
        const text = value.text;
        const at = `recorded:${recorded.record}${'index' in recorded ? `[${recorded.index}]` : ''}:${recorded.attribute ?? 'body'}`;
        return toolAnswer({
          maxTokens: args.max_tokens,
          fit: (room) => {
            const fitted = windowAnswer(
              ids,
              at,
              text,
              cursor.from,
              room,
              (from) => call({ recorded, from }),
              {
                recorded,
                type: value.type,
                size: value.size,
              },
            );
            const window = fitted.answer.window as { text: string };
            window.text = withoutFileBytesInText(window.text);
            return fitted;
          },
          render,
        });
      }
      const logsFrom = logsFromOf(cursor);
      const detail = await sources.readModel.spanDetail(args.trace_id, args.span_id, {
        includeContent: args.include_content,
        logsFrom,
      });
      if (cursor !== undefined && 'list' in cursor && logsFrom > 0 && detail.logs.length === 0)
        throw new ToolInputError('cursor: past the end of the list');
      const answer = withoutFileBytes(narrowed(detail, sections));
      if (cursor !== undefined && 'value' in cursor && Array.isArray(answer.logs)) {
        // A value cursor names a log record by its index in the whole list (`/logs/<i>/…`): the
        // page read from that record on is keyed by those indexes, for the pointer to find it.
        answer.logs = Object.fromEntries(
          (answer.logs as unknown[]).map((log, position) => [String(logsFrom + position), log]),
        );
      }
      const whole: WholeAnswer = {
        whole: answer,
        lists: SECTION_NAMES.filter((name) => sections === undefined || sections.includes(name)).map(
          (name) => SECTIONS[name],
        ),
        headValues: HEAD_VALUES,
        ids,
        call,
        cutsOf: (path, item, position) => spanDetailCuts(path, item, position, call),
        // The read model's page of log records: where it starts in the span's whole list, and how
        // long that list is, so the cut past the page continues with the next records.
        extent: (path) =>
          path[0] === 'logs'
            ? { start: logsFrom, total: logsFrom + detail.logs.length + detail.omittedLogs }
            : undefined,
      };
      return toolAnswer({
        maxTokens: args.max_tokens,
        fit: (room) => fitWholeAnswer(whole, room, cursor),
        render,
      });
    },
  });
}
