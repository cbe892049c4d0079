/**
 * The options of `media.fetch` and their one validation (spec "Media fetch and resolve (SDK)",
 * "Limits").
 * @module
 */

import { describeValue } from '../../diagnostics/describe-value.js';
import { MAX_FILE_BYTES } from '../media-types.js';

/** Default size limit of one file read back: 64 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024;

/** A file read from the trace it was recorded in (Read or Read and write key). */
export interface TraceFileSource {
  /** The trace: its 32-hex OpenTelemetry trace ID, or the service trace ID (a UUID). */
  traceId: string;
  /** Give `traceId` or `snapshotId`, not both. */
  snapshotId?: never;
  /**
   * The span (16 hex) that records the file: limits the read to that span and its correlated logs,
   * which is faster and finds a file held inline by a log record.
   */
  spanId?: string;
}

/**
 * A file read from an evaluation trace snapshot (the `traceSnapshotId` of an execution completed
 * with `traceEvidence: 'required'`): the files its copy of the trace lists, whatever was written
 * to the trace afterwards. Needs a Read and write key.
 */
export interface SnapshotFileSource {
  /** The snapshot: a lowercase UUID. */
  snapshotId: string;
  /** Give `traceId` or `snapshotId`, not both. */
  traceId?: never;
  /**
   * The span (16 hex) of the snapshot that records the file: limits where its name is read to that
   * span and its correlated logs.
   */
  spanId?: string;
}

/** Where a file is read from: exactly one of a trace (`traceId`) or a trace snapshot (`snapshotId`). */
export type MediaFileSource = TraceFileSource | SnapshotFileSource;

/** Limits and cancellation shared by `fetch` and `resolve`. */
export interface MediaReadLimits {
  /** Largest file read, in bytes: integer 0 to 1000000000; default 64 MiB. */
  maxBytes?: number;
  /** Cancels the read; the call then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** The file `media.fetch` reads. */
export interface MediaFetchFile {
  /** The file's SHA-256: 64 lowercase hex characters. */
  sha256: string;
}

/** Options of `media.fetch`: where the file is, which file, limits. */
export type MediaFetchOptions = MediaFileSource & MediaReadLimits & MediaFetchFile;

/** A validated source: the trace (as given) or the snapshot. */
export type ResolvedFileSource = { traceId: string } | { snapshotId: string };

/** A validated {@link MediaFileSource} with the limits applied. */
export interface ResolvedReadTarget {
  source: ResolvedFileSource;
  spanId: string | undefined;
  maxBytes: number;
  signal: AbortSignal | undefined;
}

const OTEL_TRACE_ID = /^[0-9a-f]{32}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;
const SHA256 = /^[0-9a-f]{64}$/;
const ALL_ZERO = /^[0-]+$/;

/** `options` as a record, or a TypeError naming `what`. */
export function optionsRecord(options: unknown, what: string): Record<string, unknown> {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`${what} must be an object; got ${describeValue(options)}`);
  }
  return options as Record<string, unknown>;
}

/** True when `value` is a SHA-256 in lowercase hex (64 characters). */
export function isSha256(value: unknown): value is string {
  return typeof value === 'string' && SHA256.test(value);
}

/** Checks a SHA-256 in lowercase hex; `name` is how the message names it. */
export function validateSha256(value: unknown, name: string): string {
  if (isSha256(value)) return value;
  throw new TypeError(`${name} must be 64 lowercase hex characters (a SHA-256); got ${describeValue(value)}`);
}

/** Validates the source: exactly one of `traceId` and `snapshotId`. */
function resolveSource(traceId: unknown, snapshotId: unknown): ResolvedFileSource {
  if (snapshotId !== undefined) {
    if (traceId !== undefined) {
      throw new TypeError(
        'traceId and snapshotId cannot both be given: pass traceId to read from the trace, or snapshotId to read from an evaluation trace snapshot',
      );
    }
    if (typeof snapshotId !== 'string' || !UUID.test(snapshotId)) {
      throw new TypeError(
        `snapshotId must be a lowercase UUID (the traceSnapshotId of a completed execution); got ${describeValue(snapshotId)}`,
      );
    }
    return { snapshotId };
  }
  if (traceId === undefined) {
    throw new TypeError(
      'traceId or snapshotId is required: pass traceId to read from a trace, or snapshotId to read from an evaluation trace snapshot; got neither',
    );
  }
  if (
    typeof traceId !== 'string' ||
    !(OTEL_TRACE_ID.test(traceId) || UUID.test(traceId)) ||
    ALL_ZERO.test(traceId)
  ) {
    throw new TypeError(
      `traceId must be 32 lowercase hex characters or a lowercase UUID (the service trace ID), not all zero; got ${describeValue(traceId)}`,
    );
  }
  return { traceId };
}

/**
 * Validates the source and limits common to `fetch` and `resolve`.
 *
 * @throws TypeError naming the option, the value and the rule it breaks.
 */
export function resolveReadTarget(given: Record<string, unknown>): ResolvedReadTarget {
  const { spanId, maxBytes, signal } = given;
  const source = resolveSource(given.traceId, given.snapshotId);
  if (
    spanId !== undefined &&
    (typeof spanId !== 'string' || !SPAN_ID.test(spanId) || ALL_ZERO.test(spanId))
  ) {
    throw new TypeError(
      `spanId must be 16 lowercase hex characters, not all zero; got ${describeValue(spanId)}`,
    );
  }
  if (
    maxBytes !== undefined &&
    !(Number.isInteger(maxBytes) && (maxBytes as number) >= 0 && (maxBytes as number) <= MAX_FILE_BYTES)
  ) {
    throw new TypeError(
      `maxBytes must be an integer from 0 to ${MAX_FILE_BYTES}; got ${describeValue(maxBytes)}`,
    );
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError(`signal must be an AbortSignal; got ${describeValue(signal)}`);
  }
  return {
    source,
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
