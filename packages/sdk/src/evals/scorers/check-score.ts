/**
 * Checks what a scorer returned against the spec's Score rules and the pinned metric definitions.
 * @module
 */

import { describeKind, describeValue } from '../../diagnostics/describe-value.js';
import { errorScore, SCORE_ERROR_TYPES } from './error-score.js';
import { findNonJson } from './json-value.js';
import type { Score, ScoreMetric } from './score.js';
import type { JsonValue, MetricDefinition } from './scorer-definitions.js';

/**
 * Turns what a scorer returned into a Score, or into an `error` Score saying why it is not one.
 * Never throws.
 *
 * - A `scored` Score needs one metric per definition, no other, each valued by its definition's
 *   type (a boolean; a string; a finite number within `min`/`max`; one of the `categories`), with
 *   an optional boolean `passed`; and a nonempty `explanation`, an `evidence` JSON value, or both.
 *   Else: `MetricMismatchError` for the metrics, `InvalidScoreError` for the rest.
 * - An `error` Score needs `error.type` (a nonempty string) and an optional string `message`.
 * - A `skipped` Score needs a nonempty `explanation`.
 *
 * Text is nonempty when it holds a non-whitespace character. The result holds only the fields of
 * the spec: other fields are dropped.
 *
 * @param returned - What the scorer returned (after awaiting).
 * @param metrics - The metric definitions of the scorer version.
 */
export function checkScore(returned: unknown, metrics: readonly MetricDefinition[]): Score {
  try {
    return readScore(returned, metrics);
  } catch (problem) {
    if (problem instanceof ScoreProblem) return errorScore(problem.type, problem.message);
    // a getter that throws, or a hostile proxy
    return errorScore(SCORE_ERROR_TYPES.invalidScore, 'The scorer returned a value that cannot be read.');
  }
}

/** Why a returned value is not a Score: thrown inside this module, caught by {@link checkScore}. */
class ScoreProblem extends Error {
  readonly type: string;

  constructor(type: string, message: string) {
    super(message);
    this.type = type;
  }
}

function invalid(rule: string): ScoreProblem {
  return new ScoreProblem(SCORE_ERROR_TYPES.invalidScore, `The scorer returned an invalid Score: ${rule}.`);
}

function mismatch(rule: string): ScoreProblem {
  return new ScoreProblem(
    SCORE_ERROR_TYPES.metricMismatch,
    `The scorer's metrics do not match the scorer version: ${rule}.`,
  );
}

function readScore(returned: unknown, metrics: readonly MetricDefinition[]): Score {
  if (typeof returned !== 'object' || returned === null || Array.isArray(returned)) {
    throw invalid(`a Score is an object with a status; got ${describeValue(returned)}`);
  }
  const given = returned as Record<string, unknown>;
  switch (given.status) {
    case 'scored':
      return readScored(given, metrics);
    case 'error':
      return readError(given.error);
    case 'skipped':
      if (!isText(given.explanation)) throw invalid('a skipped Score needs a nonempty explanation');
      return { status: 'skipped', explanation: given.explanation };
    default:
      throw invalid(`status must be one of scored, error, skipped; got ${describeValue(given.status)}`);
  }
}

function readScored(given: Record<string, unknown>, metrics: readonly MetricDefinition[]): Score {
  const { explanation, evidence } = given;
  if (explanation !== undefined && typeof explanation !== 'string') {
    throw invalid(`explanation must be a string when set; got ${describeValue(explanation)}`);
  }
  if (evidence !== undefined) {
    const nonJson = findNonJson(evidence);
    if (nonJson !== undefined) throw invalid(`evidence must be a JSON value; it holds ${nonJson}`);
  }
  if (!isText(explanation) && evidence === undefined) {
    throw invalid('a scored Score needs a nonempty explanation or an evidence value');
  }
  const score: Score = { status: 'scored', metrics: readMetrics(given.metrics, metrics) };
  if (explanation !== undefined) score.explanation = explanation;
  if (evidence !== undefined) score.evidence = evidence as JsonValue;
  return score;
}

function readError(error: unknown): Score {
  if (typeof error !== 'object' || error === null || Array.isArray(error)) {
    throw invalid(`an error Score needs error: { type, message? }; got ${describeValue(error)}`);
  }
  const { type, message } = error as Record<string, unknown>;
  if (!isText(type)) throw invalid(`error.type must be a nonempty string; got ${describeValue(type)}`);
  if (message !== undefined && typeof message !== 'string') {
    throw invalid(`error.message must be a string when set; got ${describeValue(message)}`);
  }
  return errorScore(type, message);
}

function readMetrics(value: unknown, definitions: readonly MetricDefinition[]): ScoreMetric[] {
  if (!Array.isArray(value)) throw mismatch(`metrics must be an array; got ${describeValue(value)}`);
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  const seen = new Set<string>();
  const result = value.map((item: unknown, index): ScoreMetric => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw mismatch(
        `metrics[${index}] must be an object { name, value, passed? }; got ${describeValue(item)}`,
      );
    }
    const { name, value: metricValue, passed } = item as Record<string, unknown>;
    const definition = typeof name === 'string' ? byName.get(name) : undefined;
    if (definition === undefined) {
      throw mismatch(`metrics[${index}].name ${describeValue(name)} is not a metric of the scorer version`);
    }
    if (seen.has(definition.name)) throw mismatch(`metric ${describeValue(name)} is returned twice`);
    seen.add(definition.name);
    const rule = valueRule(definition, metricValue);
    if (rule !== undefined) throw mismatch(`the value of metric ${describeValue(name)} must be ${rule}`);
    if (passed !== undefined && typeof passed !== 'boolean') {
      throw mismatch(
        `passed of metric ${describeValue(name)} must be a boolean when set; got ${describeValue(passed)}`,
      );
    }
    const metric: ScoreMetric = { name: definition.name, value: metricValue as ScoreMetric['value'] };
    if (passed !== undefined) metric.passed = passed;
    return metric;
  });
  const missing = definitions.filter((definition) => !seen.has(definition.name));
  if (missing.length > 0) {
    throw mismatch(
      `missing metric ${missing.map((definition) => describeValue(definition.name)).join(', ')}`,
    );
  }
  return result;
}

/** The rule `value` breaks, or `undefined` when it fits `definition`. Values are not shown. */
function valueRule(definition: MetricDefinition, value: unknown): string | undefined {
  switch (definition.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `a boolean; got ${describeKind(value)}`;
    case 'text':
      return typeof value === 'string' ? undefined : `a string; got ${describeKind(value)}`;
    case 'category':
      return typeof value === 'string' && definition.categories.includes(value)
        ? undefined
        : `one of the categories ${definition.categories.map((category) => describeValue(category)).join(', ')}`;
    case 'number': {
      const { min, max } = definition;
      const range =
        min !== undefined && max !== undefined
          ? `a finite number from ${min} to ${max}`
          : min !== undefined
            ? `a finite number of at least ${min}`
            : max !== undefined
              ? `a finite number of at most ${max}`
              : 'a finite number';
      const fits =
        typeof value === 'number' &&
        Number.isFinite(value) &&
        (min === undefined || value >= min) &&
        (max === undefined || value <= max);
      return fits
        ? undefined
        : typeof value === 'number'
          ? `${range}; got a number outside it`
          : `${range}; got ${describeKind(value)}`;
    }
  }
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && /\S/u.test(value);
}
