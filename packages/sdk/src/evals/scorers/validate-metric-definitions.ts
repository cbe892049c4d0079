/**
 * Validation of metric definitions (the spec's "Metric definition"), shared by
 * `defineLocalScorer` and the scorer versions given to `scoreLocally`.
 * @module
 */

import { describeValue } from '../../diagnostics/describe-value.js';
import type { MetricDefinition, NumberMetricDefinition } from './scorer-definitions.js';

/** Longest metric name, in UTF-16 code units. */
export const MAX_METRIC_NAME_LENGTH = 256;

/** Most metrics of one scorer definition (as the service accepts them). */
export const MAX_METRICS = 32;

/** Most categories of one category metric (as the service accepts them). */
export const MAX_CATEGORIES = 256;

const METRIC_TYPES = ['boolean', 'text', 'number', 'category'] as const;

/**
 * Checks a list of metric definitions: an array of 1 to 32; each with a `name` of 1 to 256
 * characters with non-whitespace content, unique in the list, and a `type` in `boolean`, `text`,
 * `number` (optional finite `min` ≤ `max`) or `category` (a list of 1 to 256 unique nonempty
 * `categories`).
 *
 * @param value - The metrics to check.
 * @param path - How the metrics are named in messages, e.g. `metrics`.
 * @returns A copy holding only the known fields.
 * @throws TypeError naming the metric field, the bad value and the rule.
 */
export function validateMetricDefinitions(value: unknown, path: string): MetricDefinition[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_METRICS) {
    throw new TypeError(
      `${path} must be an array of 1 to ${MAX_METRICS} metric definitions; got ${
        Array.isArray(value) ? `${value.length} of them` : describeValue(value)
      }`,
    );
  }
  const names = new Set<string>();
  return value.map((metric: unknown, index) => {
    const at = `${path}[${index}]`;
    const checked = validateMetricDefinition(metric, at);
    if (names.has(checked.name)) {
      throw new TypeError(
        `${at}.name must be unique among the metrics; got ${describeValue(checked.name)} twice`,
      );
    }
    names.add(checked.name);
    return checked;
  });
}

function validateMetricDefinition(metric: unknown, at: string): MetricDefinition {
  if (typeof metric !== 'object' || metric === null || Array.isArray(metric)) {
    throw new TypeError(`${at} must be an object { name, type }; got ${describeValue(metric)}`);
  }
  const given = metric as Record<string, unknown>;
  const name = given.name;
  if (typeof name !== 'string' || !/\S/u.test(name) || name.length > MAX_METRIC_NAME_LENGTH) {
    throw new TypeError(
      `${at}.name must be a string of 1 to ${MAX_METRIC_NAME_LENGTH} characters with non-whitespace content; got ${describeValue(name)}`,
    );
  }
  switch (given.type) {
    case 'boolean':
    case 'text':
      return { name, type: given.type };
    case 'number':
      return validateNumberBounds(name, given, at);
    case 'category':
      return { name, type: 'category', categories: validateCategories(given.categories, `${at}.categories`) };
    default:
      throw new TypeError(
        `${at}.type must be one of ${METRIC_TYPES.join(', ')}; got ${describeValue(given.type)}`,
      );
  }
}

function validateNumberBounds(
  name: string,
  given: Record<string, unknown>,
  at: string,
): NumberMetricDefinition {
  const result: NumberMetricDefinition = { name, type: 'number' };
  for (const bound of ['min', 'max'] as const) {
    const value = given[bound];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new TypeError(`${at}.${bound} must be a finite number when set; got ${describeValue(value)}`);
    }
    result[bound] = value;
  }
  if (result.min !== undefined && result.max !== undefined && result.min > result.max) {
    throw new TypeError(`${at}.min must not be greater than ${at}.max; got ${result.min} > ${result.max}`);
  }
  return result;
}

function validateCategories(value: unknown, at: string): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_CATEGORIES) {
    throw new TypeError(
      `${at} must be an array of 1 to ${MAX_CATEGORIES} strings; got ${
        Array.isArray(value) ? `${value.length} of them` : describeValue(value)
      }`,
    );
  }
  const seen = new Set<string>();
  for (const [index, category] of value.entries()) {
    if (typeof category !== 'string' || category === '') {
      throw new TypeError(`${at}[${index}] must be a nonempty string; got ${describeValue(category)}`);
    }
    if (seen.has(category)) {
      throw new TypeError(
        `${at}[${index}] must be unique among the categories; got ${describeValue(category)} twice`,
      );
    }
    seen.add(category);
  }
  return [...value];
}
