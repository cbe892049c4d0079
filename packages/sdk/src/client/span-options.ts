/**
 * Options of `withSpan` and the handle its callback receives, with their validation.
 * @module
 */
import { type Attributes, type Context, type Span, SpanKind } from '@opentelemetry/api';
import type { RecordFileOptions } from '../media/attachment/recorded-file.js';

/** Options of `withSpan` (the spec's "Span options"). */
export interface WithSpanOptions {
  /** Default `SpanKind.INTERNAL`. */
  kind?: SpanKind;
  /** Extra OpenTelemetry attributes, caller-owned (not treated as content). */
  attributes?: Attributes;
  /** Root input, recorded as JSON when content capture is on. */
  input?: unknown;
  /** 1 to 4096 characters; inherited by nested calls; recorded as `gen_ai.conversation.id`. */
  sessionId?: string;
  /** 1 to 4096 characters; inherited by nested calls; recorded as `user.id`. */
  userId?: string;
  /** Explicit parent; else the surrounding callback's context, else the active OpenTelemetry context. */
  parentContext?: Context;
}

/** What a `withSpan` callback receives. */
export interface SpanHandle {
  readonly span: Span;
  /** The context with this span active: pass it as an explicit parent. */
  readonly context: Context;
  readonly traceId: string;
  readonly spanId: string;
  /** Records the span's input (JSON, at most 256 KiB) when content capture is on. */
  setInput(value: unknown): void;
  /** Records the span's output (JSON, at most 256 KiB) when content capture is on. */
  setOutput(value: unknown): void;
  /**
   * Records a file the work read, received or produced: a `svc.file` event (digest, size, media
   * type, role, name); with `upload: true` its bytes also upload. Never throws.
   */
  recordFile(options: RecordFileOptions): void;
}

const MAX_ID_LENGTH = 4096;
const KINDS = new Set<unknown>(Object.values(SpanKind).filter((v) => typeof v === 'number'));

function checkIdentity(name: 'sessionId' | 'userId', value: unknown): void {
  if (value === undefined) return;
  if (
    typeof value !== 'string' ||
    value.length < 1 ||
    value.length > MAX_ID_LENGTH ||
    !value.isWellFormed()
  ) {
    const shown = typeof value === 'string' ? `a string of ${value.length} characters` : typeof value;
    throw new TypeError(`${name} must be 1 to ${MAX_ID_LENGTH} well-formed characters; got ${shown}`);
  }
}

/** Validates `withSpan` arguments; throws `TypeError` naming the option, the bad value and the rule. */
export function validateWithSpan(
  name: unknown,
  callback: unknown,
  options: WithSpanOptions | undefined,
): void {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new TypeError(`withSpan name must be a nonblank string; got ${JSON.stringify(name)}`);
  }
  if (typeof callback !== 'function')
    throw new TypeError(`withSpan callback must be a function; got ${typeof callback}`);
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`withSpan options must be an object; got ${String(options)}`);
  }
  if (options.kind !== undefined && !KINDS.has(options.kind)) {
    throw new TypeError(`kind must be a SpanKind; got ${JSON.stringify(options.kind)}`);
  }
  if (
    options.attributes !== undefined &&
    (typeof options.attributes !== 'object' || options.attributes === null)
  ) {
    throw new TypeError(
      `attributes must be an object of OpenTelemetry attributes; got ${String(options.attributes)}`,
    );
  }
  checkIdentity('sessionId', options.sessionId);
  checkIdentity('userId', options.userId);
}
