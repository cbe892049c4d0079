/**
 * What the read model answers: the shapes the read API, the viewer and the MCP tools share.
 * @module
 */
import type { FileState } from '../media/trace-files.js';

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

export type { FileState };
