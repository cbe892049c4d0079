/**
 * An experiment compared with a baseline experiment, case by case (cases matched by their external
 * key), as `svc eval --baseline` reports it: a case regressed when it passed before and fails or
 * errors now, improved in the opposite case, changed on another change of state; new and missing
 * cases; and each metric over the run (its pass rate for boolean metrics, its mean for numbers),
 * metrics matched by scorer (whatever its version) and name.
 * @module
 */
import type { CaseOutcome, CaseState } from './case-outcomes.js';

/** How a case changed. */
export type CaseChange = 'regressed' | 'improved' | 'unchanged' | 'changed' | 'new' | 'missing';

/** The changes in the order the page lists them. */
export const CHANGES: readonly CaseChange[] = [
  'regressed',
  'improved',
  'changed',
  'new',
  'missing',
  'unchanged',
];

/** A case, before and after. */
export interface CaseComparison {
  externalKey: string;
  change: CaseChange;
  before: CaseState | null;
  after: CaseState | null;
}

/** A metric over the run, before and after. */
export interface MetricComparison {
  scorer: string;
  metric: string;
  measure: 'pass rate' | 'mean';
  before: number | null;
  after: number | null;
  delta: number | null;
}

/** The comparison. */
export interface ExperimentComparison {
  counts: Record<CaseChange, number>;
  cases: CaseComparison[];
  metrics: MetricComparison[];
}

/** One side: its outcomes and each scorer version's scorer (ID and slug). */
export interface ComparedSide {
  outcomes: readonly CaseOutcome[];
  scorerOf: (scorerVersionId: string) => { id: string; slug: string };
}

function changeOf(before: CaseState | null, after: CaseState | null): CaseChange {
  if (before === null) return 'new';
  if (after === null) return 'missing';
  if (before === after) return 'unchanged';
  if (before === 'PASS' && (after === 'FAIL' || after === 'ERROR')) return 'regressed';
  if (after === 'PASS' && (before === 'FAIL' || before === 'ERROR')) return 'improved';
  return 'changed';
}

/** Every boolean and number metric value of a side, by `<scorer ID> <metric>`. */
function metricValues(side: ComparedSide) {
  const values = new Map<string, { slug: string; metric: string; values: (boolean | number)[] }>();
  for (const outcome of side.outcomes) {
    for (const score of outcome.scores) {
      const scorer = side.scorerOf(score.scorerVersionId);
      for (const metric of score.metrics) {
        if (typeof metric.value !== 'boolean' && typeof metric.value !== 'number') continue;
        const key = `${scorer.id} ${metric.name}`;
        const entry = values.get(key) ?? { slug: scorer.slug, metric: metric.name, values: [] };
        entry.values.push(metric.value);
        values.set(key, entry);
      }
    }
  }
  return values;
}

function measureOf(values: readonly (boolean | number)[], measure: MetricComparison['measure']) {
  if (values.length === 0) return null;
  if (measure === 'pass rate') return values.filter((value) => value === true).length / values.length;
  return values.reduce<number>((sum, value) => sum + Number(value), 0) / values.length;
}

/** Compares `current` with `baseline`. */
export function compareExperiments(current: ComparedSide, baseline: ComparedSide): ExperimentComparison {
  const before = new Map(baseline.outcomes.map((outcome) => [outcome.externalKey, outcome.state]));
  const after = new Map(current.outcomes.map((outcome) => [outcome.externalKey, outcome.state]));
  const keys = [
    ...current.outcomes.map((outcome) => outcome.externalKey),
    ...baseline.outcomes.map((outcome) => outcome.externalKey).filter((key) => !after.has(key)),
  ];
  const counts: Record<CaseChange, number> = {
    regressed: 0,
    improved: 0,
    unchanged: 0,
    changed: 0,
    new: 0,
    missing: 0,
  };
  const cases = keys.map((externalKey) => {
    const was = before.get(externalKey) ?? null;
    const now = after.get(externalKey) ?? null;
    const change = changeOf(was, now);
    counts[change] += 1;
    return { externalKey, change, before: was, after: now };
  });
  const old = metricValues(baseline);
  const fresh = metricValues(current);
  const metrics: MetricComparison[] = [];
  for (const key of new Set([...fresh.keys(), ...old.keys()])) {
    const named = (fresh.get(key) ?? old.get(key))!;
    const measure = typeof named.values[0] === 'boolean' ? 'pass rate' : 'mean';
    const was = measureOf(old.get(key)?.values ?? [], measure);
    const now = measureOf(fresh.get(key)?.values ?? [], measure);
    metrics.push({
      scorer: named.slug,
      metric: named.metric,
      measure,
      before: was,
      after: now,
      delta: was === null || now === null ? null : now - was,
    });
  }
  return { counts, cases, metrics };
}
