/**
 * The options of `media.fetch` and their one validation (spec "Media fetch and resolve (SDK)",
 * "Limits").
 * @module
 */

import { describe } from '../../options/validate-options.js';
import { MAX_FILE_BYTES } from '../media-types.js';

/** Default size limit of one file read back: 64 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Where a file is read from: the trace it was recorded in. (Evaluation snapshot copies will be a
 * second form, `{ snapshotId }`, when the service's snapshot reads are available.)
 */
export interface TraceFileSource {
  /** The trace: its 32-hex OpenTelemetry trace ID, or the service trace ID (a UUID). */
  traceId: string;
  /**
   * The span (16 hex) that records the file: limits the read to that span and its correlated logs,
   * which is faster and finds a file held inline by a log record.
   */
  spanId?: string;
}

/** Limits and cancellation shared by `fetch` and `resolve`. */
export interface MediaReadLimits {
  /** Largest file read, in bytes: integer 0 to 1000000000; default 64 MiB. */
  maxBytes?: number;
  /** Cancels the read; the call then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Options of `media.fetch`. */
export interface MediaFetchOptions extends TraceFileSource, MediaReadLimits {
  /** The file's SHA-256: 64 lowercase hex characters. */
  sha256: string;
}

/** A validated {@link TraceFileSource} with the limits applied. */
export interface ResolvedReadTarget {
  traceId: string;
  spanId: string | undefined;
  maxBytes: number;
  signal: AbortSignal | undefined;
}

const OTEL_TRACE_ID = /^[0-9a-f]{32}$/;
const SERVICE_TRACE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;
const SHA256 = /^[0-9a-f]{64}$/;
const ALL_ZERO = /^[0-]+$/;

/** `options` as a record, or a TypeError naming `what`. */
export function optionsRecord(options: unknown, what: string): Record<string, unknown> {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`${what} must be an object; got ${describe(options)}`);
  }
  return options as Record<string, unknown>;
}

/** Checks a SHA-256 in lowercase hex; `name` is how the message names it. */
export function validateSha256(value: unknown, name: string): string {
  if (typeof value === 'string' && SHA256.test(value)) return value;
  throw new TypeError(`${name} must be 64 lowercase hex characters (a SHA-256); got ${describe(value)}`);
}

/**
 * Validates the source and limits common to `fetch` and `resolve`.
 *
 * @throws TypeError naming the option, the value and the rule it breaks.
 */
export function resolveReadTarget(given: Record<string, unknown>): ResolvedReadTarget {
  if (given.snapshotId !== undefined) {
    throw new TypeError(
      'snapshotId is not supported yet: evaluation snapshot copies cannot be read by this SDK version; read the file from its trace with traceId',
    );
  }
  const { traceId, spanId, maxBytes, signal } = given;
  if (
    typeof traceId !== 'string' ||
    !(OTEL_TRACE_ID.test(traceId) || SERVICE_TRACE_ID.test(traceId)) ||
    ALL_ZERO.test(traceId)
  ) {
    throw new TypeError(
      `traceId must be 32 lowercase hex characters or a lowercase UUID (the service trace ID), not all zero; got ${describe(traceId)}`,
    );
  }
  if (
    spanId !== undefined &&
    (typeof spanId !== 'string' || !SPAN_ID.test(spanId) || ALL_ZERO.test(spanId))
  ) {
    throw new TypeError(`spanId must be 16 lowercase hex characters, not all zero; got ${describe(spanId)}`);
  }
  if (
    maxBytes !== undefined &&
    !(Number.isInteger(maxBytes) && (maxBytes as number) >= 0 && (maxBytes as number) <= MAX_FILE_BYTES)
  ) {
    throw new TypeError(`maxBytes must be an integer from 0 to ${MAX_FILE_BYTES}; got ${describe(maxBytes)}`);
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError(`signal must be an AbortSignal; got ${describe(signal)}`);
  }
  return {
    traceId,
    spanId: spanId as string | undefined,
    maxBytes: (maxBytes as number | undefined) ?? DEFAULT_MAX_FILE_BYTES,
    signal: signal as AbortSignal | undefined,
  };
}

/**
 * Validates the options of `media.fetch`.
 *
 * @throws TypeError naming the option, the value and the rule it breaks.
 */
export function resolveFetchOptions(options: unknown): ResolvedReadTarget & { sha256: string } {
  const given = optionsRecord(options, 'media.fetch options');
  const sha256 = validateSha256(given.sha256, 'sha256');
  return { ...resolveReadTarget(given), sha256 };
}
