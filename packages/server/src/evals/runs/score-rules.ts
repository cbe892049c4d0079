/**
 * The Score rules a submitted result must follow (the spec's "Evaluation objects", Score), and the
 * exact match of its metrics against the pinned scorer version's metric definitions.
 * @module
 */
import type { MetricDefinition } from '../scorers/metric-schemas.js';

/** The Score fields of a submission. */
export interface ScoreFields {
  status: 'scored' | 'error' | 'skipped';
  metrics?: { name: string; value: boolean | number | string; passed?: boolean | undefined }[] | undefined;
  explanation?: string | undefined;
  evidence?: unknown;
  error?: { type: string; message?: string | undefined } | undefined;
}

/** What a failed rule is. */
export interface ScoreProblem {
  /** The field, relative to the result (e.g. `metrics.1.value`). */
  field: string;
  rule: string;
  /** True when the metrics do not match the pinned definitions. */
  metricMismatch: boolean;
}

const hasText = (value: string | undefined) => value !== undefined && /\S/u.test(value);

function problem(field: string, rule: string, metricMismatch = false): ScoreProblem {
  return { field, rule, metricMismatch };
}

/** The rule a metric value breaks, or `undefined` when it fits its definition. */
function valueProblem(definition: MetricDefinition, value: boolean | number | string): string | undefined {
  switch (definition.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be a boolean';
    case 'text':
      return typeof value === 'string' ? undefined : 'must be a string';
    case 'category':
      return typeof value === 'string' && definition.categories.includes(value)
        ? undefined
        : `must be one of the categories ${definition.categories.map((c) => JSON.stringify(c)).join(', ')}`;
    case 'number': {
      if (typeof value !== 'number') return 'must be a number';
      if (definition.min !== undefined && value < definition.min) return `must be at least ${definition.min}`;
      if (definition.max !== undefined && value > definition.max) return `must be at most ${definition.max}`;
      return undefined;
    }
  }
}

/** The first rule `score` breaks against `definitions`, or `undefined`. */
export function scoreProblem(
  score: ScoreFields,
  definitions: readonly MetricDefinition[],
): ScoreProblem | undefined {
  if (score.status !== 'scored') {
    if (score.metrics !== undefined) return problem('metrics', `is allowed only with status scored`);
    if (score.evidence !== undefined) return problem('evidence', `is allowed only with status scored`);
  }
  if (score.status === 'error') {
    if (score.error === undefined)
      return problem('error', 'is required with status error ({ type, message? })');
    if (score.explanation !== undefined) return problem('explanation', 'is not allowed with status error');
    return undefined;
  }
  if (score.error !== undefined) return problem('error', 'is allowed only with status error');
  if (score.status === 'skipped') {
    return hasText(score.explanation)
      ? undefined
      : problem('explanation', 'is required with status skipped (nonempty)');
  }
  if (!hasText(score.explanation) && score.evidence === undefined) {
    return problem('explanation', 'a scored result needs a nonempty explanation or an evidence value');
  }
  if (score.metrics === undefined) return problem('metrics', 'are required with status scored', true);
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  const seen = new Set<string>();
  for (const [index, metric] of score.metrics.entries()) {
    const definition = byName.get(metric.name);
    if (definition === undefined) {
      return problem(`metrics.${index}.name`, 'is not a metric of the pinned scorer version', true);
    }
    if (seen.has(metric.name)) return problem(`metrics.${index}.name`, 'repeats a metric', true);
    seen.add(metric.name);
    const rule = valueProblem(definition, metric.value);
    if (rule !== undefined) return problem(`metrics.${index}.value`, rule, true);
  }
  const missing = definitions.find((definition) => !seen.has(definition.name));
  if (missing !== undefined) {
    return problem(
      'metrics',
      `miss the metric ${JSON.stringify(missing.name)} of the pinned scorer version`,
      true,
    );
  }
  return undefined;
}
