/**
 * What the read model answers: the shapes the read API, the viewer and the MCP tools share.
 * @module
 */
import type { FileState } from '../media/trace-files.js';
import type { ValueLocation } from './messages/message-types.js';

/** OTLP span kinds by name. */
export type SpanKindName = 'UNSPECIFIED' | 'INTERNAL' | 'SERVER' | 'CLIENT' | 'PRODUCER' | 'CONSUMER';

/** OTLP status codes by name. */
export type SpanStatusName = 'UNSET' | 'OK' | 'ERROR';

/** One span of a trace outline: everything but attribute values. */
export interface OutlineSpan {
  spanId: string;
  /** `null` for a root span (no parent, or a parent that is not in the trace). */
  parentSpanId: string | null;
  name: string;
  kind: SpanKindName;
  /** Start and end as decimal Unix nanoseconds (exact), and the start as ISO 8601 (ms). */
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  startTime: string;
  /** End minus start, in milliseconds (fractional); 0 when the span ends before it starts. */
  durationMs: number;
  status: SpanStatusName;
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
  /** `error.type`, or the type of an `exception` event. */
  errorType?: string;
  /** True when the span's status is ERROR, or it records an error type. */
  error: boolean;
  eventCount: number;
  /** Log records correlated with the span. */
  logCount: number;
  /** Files the span and its correlated log records list (digests; see `spanDetail`). */
  fileCount: number;
}

/** Token use of one model across a trace's model-call spans. */
export interface ModelUsage {
  model: string;
  inputTokens: number;
  outputTokens: number;
  /** Model-call spans of this model. */
  calls: number;
}

/** The summary of a trace. */
export interface TraceSummaryView {
  traceId: string;
  /** The root span's name (the earliest root when there are several), `null` when no span is stored. */
  rootName: string | null;
  startTime: string | null;
  startTimeUnixNano: string | null;
  endTimeUnixNano: string | null;
  durationMs: number;
  spanCount: number;
  errorCount: number;
  /** Correlated log records. */
  logCount: number;
  inputTokens: number;
  outputTokens: number;
  /** Tokens per model (spans with tokens but no model name count under `(unknown model)`). */
  models: ModelUsage[];
  sessions: string[];
  users: string[];
  services: string[];
}

/** A trace outline: the summary and one page of its spans, in start order. */
export interface TraceOutline {
  summary: TraceSummaryView;
  spans: OutlineSpan[];
  /** Give as `after` for the next page of spans; `null` on the last page. */
  nextCursor: string | null;
}

/** A file the viewer, the read API and the MCP tools show, with its state. */
export interface FileView {
  key: string;
  sha256: string;
  size: number;
  contentType: string;
  name?: string;
  state: FileState;
}

export type { FileState, ValueLocation };

/** The longest value (UTF-8 bytes) a span detail shows whole; longer ones show their start. */
export const MAX_SHOWN_VALUE_BYTES = 64 * 1024;

/**
 * An attribute as the read model shows it. Content attributes (the shared table of content
 * attributes, `@svc-run/conventions`) show their value only with `includeContent`; otherwise
 * `withheld` is true and only `type` and `size` say what is there.
 */
export interface AttributeView {
  key: string;
  /** The OTLP value type: `string`, `bool`, `int`, `double`, `bytes`, `array`, `kvlist`, `empty`. */
  type: string;
  /** The plain value (strings cut to their first 64 KiB: see `truncated`). */
  value?: unknown;
  /** UTF-8 bytes of the value as text (a string's own bytes; JSON text for the others). */
  size: number;
  /** A recognized content attribute. */
  content: boolean;
  /** The value is left out: a content attribute read without `includeContent`. */
  withheld?: true;
  /** The value shown is the start of a longer one; `size` is the whole value's. */
  truncated?: true;
}

/** A file the span (or a log record correlated with it) holds, with its state. */
export interface SpanFileView extends FileView {
  /** `digest`: the record holds the digest, the bytes were sent for upload; `inline`: the record holds the bytes. */
  form: 'digest' | 'inline';
  /** Where it was found. */
  where: 'message' | 'event' | 'attachment' | 'metadata' | 'log';
  /** The `svc.file` event's role. */
  role?: 'input' | 'attachment' | 'output';
}

/** A value uploaded whole (over 1 MiB), of which the record keeps a 16 KiB prefix. */
export interface LargeValueView {
  attribute: string;
  /** The `svc.blobs` key: `<attribute>#`. */
  key: string;
  sha256: string;
  /** The whole value's size in bytes. */
  size: number;
  contentType: string;
  state: FileState;
  /** The prefix the record keeps (UTF-8 bytes), and, with `includeContent`, its text. */
  prefixSize: number;
  prefix?: string;
}

/**
 * A message part as the read model shows it. With `includeContent` every part is as normalized
 * (`MessagePart`; long text cut to its first 64 KiB, `truncated` set). Without it, nothing recorded
 * leaves: text, reasoning, tool arguments and unknown values are replaced by their size
 * (`withheld: true`), a remote reference keeps its kind, platform and media type but not its URI
 * or file ID; files keep their digest, type, size, name and state.
 */
export type MessagePartView =
  | {
      type: 'text' | 'reasoning';
      text?: string;
      size: number;
      withheld?: true;
      truncated?: true;
      prefixOf?: SpanFileView;
      at: ValueLocation;
    }
  | { type: 'file'; file: SpanFileView; at: ValueLocation }
  | { type: 'remote'; reference: RemoteReferenceView; at: ValueLocation }
  | {
      type: 'tool_call';
      id?: string;
      name: string;
      arguments?: unknown;
      size: number;
      withheld?: true;
      truncated?: true;
      at: ValueLocation;
    }
  | {
      type: 'tool_result';
      id?: string;
      name?: string;
      isError?: boolean;
      parts: MessagePartView[];
      at: ValueLocation;
    }
  | { type: 'other'; value?: unknown; size: number; withheld?: true; truncated?: true; at: ValueLocation };

/** A remote reference as shown: the URI or file ID only with `includeContent`. */
export interface RemoteReferenceView {
  kind: 'uri' | 'file_id' | 'media_reference';
  /** A web URL (`http:`/`https:`): shown as a link. */
  link?: boolean;
  objectStore?: boolean;
  uri?: string;
  fileId?: string;
  provider?: string;
  /** For `media_reference`: the platform holding the file (`langfuse`) and its ID there. */
  platform?: string;
  id?: string;
  mediaType?: string;
  name?: string;
  withheld?: true;
}

/** A message as shown. */
export interface MessageView {
  direction: 'input' | 'output';
  role: string;
  name?: string;
  finishReason?: string;
  convention: string;
  at: ValueLocation;
  parts: MessagePartView[];
}

/** A span event as shown. */
export interface EventView {
  name: string;
  time: string;
  timeUnixNano: string;
  attributes: AttributeView[];
  droppedAttributesCount: number;
}

/** A span link as shown. */
export interface LinkView {
  traceId: string;
  spanId: string;
  traceState: string;
  attributes: AttributeView[];
}

/** A log record correlated with the span, as shown. */
export interface LogView {
  time: string;
  timeUnixNano: string;
  severityNumber: number;
  severityText: string;
  eventName: string;
  /** The body, with `includeContent` (cut to 64 KiB: `bodyTruncated`). */
  body?: unknown;
  bodyType: string;
  bodySize: number;
  bodyWithheld?: true;
  bodyTruncated?: true;
  attributes: AttributeView[];
  messages: MessageView[];
}

/** Everything the read model shows of one span. */
export interface SpanDetail {
  traceId: string;
  span: OutlineSpan & {
    traceState: string;
    /** The status message, with `includeContent` (it is content, spec: capture off removes it). */
    statusMessage?: string;
    statusMessageSize: number;
    droppedAttributesCount: number;
    droppedEventsCount: number;
    droppedLinksCount: number;
  };
  /** Whether recorded content is in this answer (`includeContent`). */
  contentIncluded: boolean;
  resource: AttributeView[];
  scope: { name: string; version: string; attributes: AttributeView[] };
  /** The conversation, normalized across conventions. */
  messages: MessageView[];
  /** Attributes read as `messages` (not repeated in `attributes`). */
  messageAttributes: string[];
  /** Every file of the span and its correlated log records: in messages first, then below them. */
  files: SpanFileView[];
  /** Remote references (never fetched), in messages and below them. */
  remoteReferences: (RemoteReferenceView & { where: 'message' | 'metadata' | 'log'; at: ValueLocation })[];
  /** Values uploaded whole (over 1 MiB) whose record keeps a 16 KiB prefix. */
  largeValues: LargeValueView[];
  /** The other attributes. */
  attributes: AttributeView[];
  events: EventView[];
  links: LinkView[];
  /**
   * The index of the first log record in `logs`, in the span's whole time-ordered list of
   * correlated log records (the `logsFrom` asked for; 0 by default). The records before it are not
   * in this answer: there are `min(logsFrom, span.logCount)` of them.
   */
  logsFrom: number;
  /**
   * One page of the log records correlated with the span, in time order: the records at indexes
   * `logsFrom` to `logsFrom + logs.length - 1` of the whole list, at most 200. Record `i` of this
   * page is record `logsFrom + i` of the whole list, the index `recordedValue`'s
   * `{ record: 'log', index }` takes. `files` and `remoteReferences` hold those of this page's
   * records only. Empty when `logsFrom` is at or past the last record.
   */
  logs: LogView[];
  /**
   * The log records after this page (indexes `logsFrom + logs.length` on), not in this answer:
   * give `logsFrom + logs.length` as `logsFrom` for the next page. 0 on the last page. With
   * `logsFrom` (the records before) and `logs.length`, it adds up to `span.logCount` whenever
   * `logsFrom` is at most `span.logCount`.
   */
  omittedLogs: number;
}
