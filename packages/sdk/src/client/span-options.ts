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
  /**
   * 1 to 4096 characters (Unicode code points; no lone surrogates); inherited by nested calls;
   * recorded as `gen_ai.conversation.id`.
   */
  sessionId?: string;
  /** 1 to 4096 characters (code points; no lone surrogates); inherited by nested calls; recorded as `user.id`. */
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

/** Most characters (Unicode code points) of `sessionId` and `userId` (spec "Span options"). */
const MAX_ID_CHARACTERS = 4096;
const KINDS = new Set<unknown>(Object.values(SpanKind).filter((v) => typeof v === 'number'));

/**
 * The characters (code points) of a well-formed string: its UTF-16 units less one per surrogate
 * pair (counted only past 4096 units: up to there both are within the limit).
 */
function characterCount(value: string): number {
  if (value.length <= MAX_ID_CHARACTERS) return value.length;
  let pairs = 0;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) pairs++;
  }
  return value.length - pairs;
}

/**
 * `sessionId` and `userId`: 1 to 4096 valid characters, counted in code points (an emoji outside
 * the Basic Multilingual Plane is one character, two UTF-16 units). A lone surrogate is not a
 * character (not a Unicode scalar value), so a string holding one is refused.
 */
function checkIdentity(name: 'sessionId' | 'userId', value: unknown): void {
  if (value === undefined) return;
  const rule = `${name} must be 1 to ${MAX_ID_CHARACTERS} well-formed characters`;
  if (typeof value !== 'string') throw new TypeError(`${rule}; got ${typeof value}`);
  if (!value.isWellFormed()) {
    throw new TypeError(`${rule}; got a string with a lone surrogate, which is not a character`);
  }
  const characters = characterCount(value);
  if (characters < 1 || characters > MAX_ID_CHARACTERS) {
    throw new TypeError(`${rule}; got a string of ${characters} characters`);
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
