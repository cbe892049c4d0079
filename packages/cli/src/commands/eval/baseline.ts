/**
 * `--baseline <experiment ID>`: the run compared with a previous experiment case by case, cases
 * matched by their external key. A case regressed when it passed before and fails or errors now,
 * improved in the opposite case; metrics are compared by scorer (whatever its version) and name.
 * @module
 */
import type { CaseOutcome, CaseState } from './case-states.js';

/** How a case changed. `changed`: another change of state (FAIL to ERROR, to or from PENDING). */
export type CaseChange = 'regressed' | 'improved' | 'unchanged' | 'changed' | 'new' | 'missing';

/** A metric of a case, before and after. */
export interface MetricChange {
  scorer: string;
  metric: string;
  before: boolean | number | string | null;
  after: boolean | number | string | null;
  /** For number metrics present on both sides: after − before. */
  delta?: number;
}

/** A case, before and after. */
export interface BaselineCase {
  externalKey: string;
  change: CaseChange;
  before: CaseState | null;
  after: CaseState | null;
  metrics: MetricChange[];
}

/** A metric over the whole run, before and after: its pass rate (boolean metrics) or mean (numbers). */
export interface MetricSummary {
  scorer: string;
  metric: string;
  measure: 'pass rate' | 'mean';
  before: number | null;
  after: number | null;
  delta: number | null;
}

/** The comparison with the baseline. */
export interface BaselineComparison {
  experimentId: string;
  runUrl: string;
  revision: string | null;
  counts: Record<CaseChange, number>;
  cases: BaselineCase[];
  metrics: MetricSummary[];
}

/** One side of the comparison: its case outcomes, and each scorer version's scorer (ID and slug). */
export interface ComparedRun {
  outcomes: readonly CaseOutcome[];
  scorerOf: (scorerVersionId: string) => { id: string; slug: string };
}

type MetricValue = boolean | number | string;

/** `metric key → value` of a case: the key is the scorer's ID and the metric's name. */
function metricsOf(
  outcome: CaseOutcome | undefined,
  run: ComparedRun,
): Map<string, { slug: string; metric: string; value: MetricValue }> {
  const metrics = new Map<string, { slug: string; metric: string; value: MetricValue }>();
  for (const score of outcome?.scores ?? []) {
    const scorer = run.scorerOf(score.scorerVersionId);
    for (const metric of score.metrics ?? []) {
      metrics.set(`${scorer.id} ${metric.name}`, {
        slug: scorer.slug,
        metric: metric.name,
        value: metric.value,
      });
    }
  }
  return metrics;
}

function changeOf(before: CaseState | null, after: CaseState | null): CaseChange {
  if (before === null) return 'new';
  if (after === null) return 'missing';
  if (before === after) return 'unchanged';
  if (before === 'PASS' && (after === 'FAIL' || after === 'ERROR')) return 'regressed';
  if (after === 'PASS' && (before === 'FAIL' || before === 'ERROR')) return 'improved';
  return 'changed';
}

function summarize(run: ComparedRun, key: string, measure: MetricSummary['measure']): number | null {
  const values = run.outcomes.flatMap((outcome) => {
    const value = metricsOf(outcome, run).get(key)?.value;
    return value === undefined ? [] : [value];
  });
  if (values.length === 0) return null;
  if (measure === 'pass rate') return values.filter((value) => value === true).length / values.length;
  return values.reduce<number>((sum, value) => sum + (value as number), 0) / values.length;
}

/** Compares `current` with `baseline`. */
export function compareWithBaseline(
  current: ComparedRun,
  baseline: ComparedRun,
  about: { experimentId: string; runUrl: string; revision: string | null },
): BaselineComparison {
  const before = new Map(baseline.outcomes.map((outcome) => [outcome.externalKey, outcome]));
  const after = new Map(current.outcomes.map((outcome) => [outcome.externalKey, outcome]));
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
  const kinds = new Map<string, { slug: string; metric: string; value: MetricValue }>();
  const cases = keys.map((externalKey): BaselineCase => {
    const was = before.get(externalKey);
    const now = after.get(externalKey);
    const change = changeOf(was?.state ?? null, now?.state ?? null);
    counts[change] += 1;
    const old = metricsOf(was, baseline);
    const fresh = metricsOf(now, current);
    const metrics: MetricChange[] = [];
    for (const key of new Set([...fresh.keys(), ...old.keys()])) {
      const first = old.get(key);
      const second = fresh.get(key);
      const named = (second ?? first)!;
      kinds.set(key, named);
      const entry: MetricChange = {
        scorer: named.slug,
        metric: named.metric,
        before: first?.value ?? null,
        after: second?.value ?? null,
      };
      if (typeof first?.value === 'number' && typeof second?.value === 'number') {
        entry.delta = second.value - first.value;
      }
      metrics.push(entry);
    }
    return { externalKey, change, before: was?.state ?? null, after: now?.state ?? null, metrics };
  });
  const metrics: MetricSummary[] = [];
  for (const [key, { slug, metric, value }] of kinds) {
    if (typeof value !== 'boolean' && typeof value !== 'number') continue;
    const measure = typeof value === 'boolean' ? 'pass rate' : 'mean';
    const was = summarize(baseline, key, measure);
    const now = summarize(current, key, measure);
    metrics.push({
      scorer: slug,
      metric,
      measure,
      before: was,
      after: now,
      delta: was === null || now === null ? null : now - was,
    });
  }
  return { ...about, counts, cases, metrics };
}
