/**
 * Validation of `verifyTrace` arguments (the spec's "Limits", Verification row).
 * @module
 */
import { describeValue } from '../diagnostics/describe-value.js';

/** Default overall verification deadline, in milliseconds. */
export const DEFAULT_VERIFY_TIMEOUT_MILLIS = 10_000;

/** Largest overall verification deadline, in milliseconds. */
export const MAX_VERIFY_TIMEOUT_MILLIS = 60_000;

/** Largest number of unique expected span IDs. */
export const MAX_EXPECTED_SPAN_IDS = 100;

/** Options of `verifyTrace`. */
export interface VerifyTraceOptions {
  /** Span IDs (16 lowercase hex, not all zero) that must be stored; at most 100 unique, duplicates collapse. */
  expectedSpanIds?: readonly string[];
  /** Receipt field names (for example `model`, `input`) that must be present; unique. */
  requiredFields?: readonly string[];
  /** Overall deadline in milliseconds: positive, finite, at most 60000; default 10000. */
  timeoutMillis?: number;
}

/** `verifyTrace` arguments after validation. */
export interface ResolvedVerifyTraceOptions {
  traceId: string;
  /** Unique, in first-seen order. */
  expectedSpanIds: string[];
  requiredFields: string[];
  timeoutMillis: number;
}

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;
const ALL_ZERO = /^0+$/;

function isId(value: unknown, pattern: RegExp): value is string {
  return typeof value === 'string' && pattern.test(value) && !ALL_ZERO.test(value);
}

function validateSpanIds(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new TypeError(`expectedSpanIds must be an array of span IDs; got ${describeValue(value)}`);
  }
  const unique = new Set<string>();
  value.forEach((id: unknown, index) => {
    if (!isId(id, SPAN_ID)) {
      throw new TypeError(
        `expectedSpanIds[${index}] must be 16 lowercase hex characters, not all zero; got ${describeValue(id)}`,
      );
    }
    unique.add(id);
  });
  if (unique.size > MAX_EXPECTED_SPAN_IDS) {
    throw new TypeError(
      `expectedSpanIds must hold at most ${MAX_EXPECTED_SPAN_IDS} unique span IDs; got ${unique.size}`,
    );
  }
  return [...unique];
}

function validateFields(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new TypeError(`requiredFields must be an array of field names; got ${describeValue(value)}`);
  }
  const seen = new Set<string>();
  value.forEach((field: unknown, index) => {
    if (typeof field !== 'string' || field === '') {
      throw new TypeError(`requiredFields[${index}] must be a nonempty string; got ${describeValue(field)}`);
    }
    if (seen.has(field)) {
      throw new TypeError(
        `requiredFields must hold unique field names; got ${describeValue(field)} more than once`,
      );
    }
    seen.add(field);
  });
  return [...seen];
}

function validateTimeout(value: unknown): number {
  if (value === undefined) return DEFAULT_VERIFY_TIMEOUT_MILLIS;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value <= 0 ||
    value > MAX_VERIFY_TIMEOUT_MILLIS
  ) {
    throw new TypeError(
      `timeoutMillis must be a positive finite number of at most ${MAX_VERIFY_TIMEOUT_MILLIS}; got ${describeValue(value)}`,
    );
  }
  return value;
}

/**
 * Validates the arguments of `verifyTrace`.
 *
 * @throws TypeError naming the argument, the value and the rule it breaks.
 */
export function resolveVerifyTraceOptions(traceId: unknown, options: unknown): ResolvedVerifyTraceOptions {
  if (!isId(traceId, TRACE_ID)) {
    throw new TypeError(
      `traceId must be 32 lowercase hex characters, not all zero; got ${describeValue(traceId)}`,
    );
  }
  if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options))) {
    throw new TypeError(`options must be an object; got ${describeValue(options)}`);
  }
  const given = (options ?? {}) as Record<string, unknown>;
  return {
    traceId,
    expectedSpanIds: validateSpanIds(given.expectedSpanIds),
    requiredFields: validateFields(given.requiredFields),
    timeoutMillis: validateTimeout(given.timeoutMillis),
  };
}
