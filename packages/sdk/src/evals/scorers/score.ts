/**
 * The Score a scorer produces (the spec's "Evaluation objects", Score) and the context it scores.
 *
 * - `scored`: `metrics` (one per metric of the pinned definition, each `{ name, value, passed? }`)
 *   and a nonempty `explanation` or an `evidence` value (or both). A failed quality metric is still
 *   `scored`, with `passed: false`.
 * - `error`: `error: { type, message? }`; the scorer could not score.
 * - `skipped`: an `explanation` of why there was nothing to score.
 * @module
 */

import type { JsonValue } from './scorer-definitions.js';

/** The statuses of a Score. */
export type ScoreStatus = 'scored' | 'error' | 'skipped';

/** One returned metric. `value` has the type its definition declares. */
export interface ScoreMetric {
  name: string;
  value: boolean | number | string;
  /** Whether the quality bar of this metric was met; omitted when the metric does not judge. */
  passed?: boolean;
}

/** A Score of status `scored`: at least one of a nonempty `explanation` and `evidence` is present. */
export interface ScoredScore {
  status: 'scored';
  metrics: ScoreMetric[];
  explanation?: string;
  evidence?: JsonValue;
}

/** What went wrong when a scorer could not score. */
export interface ScoreError {
  /** The error type, e.g. the thrown error's name (`TypeError`) or `MetricMismatchError`. */
  type: string;
  message?: string;
}

/** A Score of status `error`. */
export interface ErrorScore {
  status: 'error';
  error: ScoreError;
}

/** A Score of status `skipped`: there was nothing to score, and `explanation` says why. */
export interface SkippedScore {
  status: 'skipped';
  explanation: string;
}

/** A Score. */
export type Score = ScoredScore | ErrorScore | SkippedScore;

/** Terminal execution states (the spec's "Execution outcome states"). */
export type ExecutionState = 'succeeded' | 'error' | 'cancelled';

/**
 * What a scorer scores: one case and the outcome of its execution. `hasOutput` and `hasExpected`
 * say whether `output` and `expected` are present, so that a present `null` differs from an absent
 * value (the case's `expected: null` is a present reference; a target returning `undefined` has no
 * output).
 */
export interface ScoreContext {
  inputs: JsonValue;
  hasOutput: boolean;
  hasExpected: boolean;
  output?: JsonValue;
  expected?: JsonValue;
  metadata?: JsonValue;
  executionState?: ExecutionState;
}
