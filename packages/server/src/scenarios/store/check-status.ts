/**
 * Where a sealed trial's checks stand now: its deterministic checks were graded at the seal; a
 * hosted judge's check stands as its judge job does (its result once it has one).
 * @module
 */
import type { EvalRegistry } from '../../evals/eval-registry.js';
import type { CheckResult } from '../grading/trial-outcome.js';
import type { StoredCheck } from './trial-rows.js';

/** The checks of a sealed trial as they stand, judges read from their jobs and results. */
export function currentChecks(
  registry: EvalRegistry,
  stored: readonly StoredCheck[],
  evaluationItemId: string | null,
): CheckResult[] {
  return stored.map(({ judgeVersionId, ...check }) => {
    if (judgeVersionId === undefined || evaluationItemId === null || check.status !== 'pending') return check;
    const result = registry.results.find(evaluationItemId, judgeVersionId);
    if (result !== undefined) {
      if (result.status !== 'scored') return { ...check, status: 'error' };
      const metric = result.metrics?.find((candidate) => candidate.name === check.name);
      return { ...check, status: metric?.passed === true ? 'passed' : 'failed' };
    }
    const job = registry.judgeJobs.latestFor(evaluationItemId, judgeVersionId);
    if (job === undefined || job.state === 'error' || job.state === 'cancelled')
      return { ...check, status: 'error' };
    return check;
  });
}
