/**
 * What the span processor keeps of a span when it ends (DESIGN: "The span's attribute values are
 * captured when the span ends (`onEnd`)"). The span is exported later, in a batch; by then a
 * processor attached after ours may have rewritten `span.attributes` in place — Langfuse's
 * `LangfuseSpanProcessor` replaces the data: URLs and base64 parts of recorded messages with its
 * `@@@langfuseMedia:…@@@` references once it has hashed them — and the service must record, and
 * upload, the files as the application recorded them (spec "Automatic capture of files": "the
 * service records the span before the platform replaces the file").
 *
 * Only the attribute map is copied, shallowly: attribute values are strings, numbers, booleans or
 * arrays of them, which processors replace rather than change. Everything else an ended span holds
 * (events, links, status, resource) cannot be changed through the OpenTelemetry API and is read
 * when the span is exported.
 * @module
 */
import type { Attributes } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';

/** A span as it ended, queued for export. */
export interface EndedSpan {
  /** The span object: it keys the files the client's helpers attached to it. */
  readonly span: ReadableSpan;
  /** Its attribute values when it ended: a copy that later processors do not reach. */
  readonly attributes: Attributes;
}

/** Captures `span` as it ends (call from `onEnd`, before later processors run). */
export function captureEndedSpan(span: ReadableSpan): EndedSpan {
  return { span, attributes: { ...span.attributes } };
}
