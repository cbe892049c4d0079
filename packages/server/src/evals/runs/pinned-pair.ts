/**
 * What a result submission and a judge job request check alike about each (item, scorer version)
 * pair they name: the item is of the run, and the run pins the scorer version.
 * @module
 */
import { ApiError } from '../../http/api-error.js';
import type { ScorerStore, ScorerVersion } from '../scorers/scorer-store.js';
import type { EvaluationRun, RunStore } from './run-store.js';

/** An (item, scorer version) pair named by a request. */
export interface RunPair {
  evaluationItemId: string;
  scorerVersionId: string;
}

/**
 * The scorer version of `pair`, after checking that its item is of `run` and that `run` pins it.
 * `at` names the pair in messages (for example `results.2`).
 *
 * @throws ApiError 404 `not_found` for an item not of the run (or an unknown scorer version), 400
 *   `invalid_request` for a scorer version the run does not pin.
 */
export function pinnedPair(
  stores: { runs: RunStore; scorers: ScorerStore },
  run: EvaluationRun,
  pair: RunPair,
  at: string,
): ScorerVersion {
  const item = stores.runs.findItem(pair.evaluationItemId);
  if (item === undefined || item.runId !== run.id) {
    throw new ApiError(404, 'not_found', `${at}.evaluationItemId: no item of this run has this ID.`);
  }
  if (!run.scorerVersionIds.includes(pair.scorerVersionId)) {
    throw new ApiError(422, 'invalid_request', `${at}.scorerVersionId: is not a scorer version of this run.`);
  }
  return stores.scorers.getVersion(pair.scorerVersionId, `${at}.scorerVersionId`);
}
