/**
 * Which scorer versions grade each case of a scenario run's experiment. A run's experiment pins
 * every case's check version and judge versions, but each case is graded by its own only: the
 * others are no check of that case (not pending ones).
 * @module
 */

import type { Experiment } from '../../evals/experiments/experiment-store.js';
import { ApiError } from '../../http/api-error.js';
import type { ScenarioStore } from './scenario-store.js';

/**
 * For the experiment of a scenario run (its `config.scenario.versionId` names a published
 * version): the scorer versions grading the case of each key (its check version, then its judge
 * versions). `undefined` for any other experiment.
 */
export function caseScorers(
  store: ScenarioStore,
  experiment: Experiment,
): ((caseKey: string) => readonly string[]) | undefined {
  const scenario = experiment.config.scenario;
  if (typeof scenario !== 'object' || scenario === null) return undefined;
  const versionId = (scenario as Record<string, unknown>).versionId;
  if (typeof versionId !== 'string') return undefined;
  let registry: ReturnType<ScenarioStore['record']>['registry'];
  try {
    registry = store.record(versionId).registry;
  } catch (error) {
    // An experiment made by hand with such a config names no published version.
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
  return (caseKey) => {
    const check = registry.checkVersions[caseKey];
    const judges = Object.values(registry.judgeVersions[caseKey] ?? {});
    return check === undefined ? judges : [check, ...judges];
  };
}
