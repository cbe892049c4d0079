/**
 * What `svc eval --scenario` keeps in a run's directory besides the trial records: the scenario it
 * resolved, the run's creation (its idempotency key and body saved before the call, its answer
 * after) and whether the report was given (a rerun of the command then starts the next run).
 * @module
 */
import { join } from 'node:path';
import { readJson, writeJsonDurably } from '../durable-json.js';
import type { SavedCall } from '../run-state.js';

/** The state of one `--scenario` run. */
export interface ScenarioRunState {
  format: 'svc-run.scenario-eval-run';
  version: 1;
  scenario: { id: string; slug: string; name: string };
  run: SavedCall<{ scenarioVersionId: string; trials: number; name?: string }, { id: string }>;
  /** Set once the run's report was given. */
  reportedAt?: string;
}

function statePath(runDirectory: string): string {
  return join(runDirectory, 'scenario-run.json');
}

/** The state of the run in `runDirectory`, or `undefined` before its first save. */
export async function readScenarioRunState(runDirectory: string): Promise<ScenarioRunState | undefined> {
  const state = await readJson<ScenarioRunState>(statePath(runDirectory));
  if (state !== undefined && (state.format !== 'svc-run.scenario-eval-run' || state.version !== 1)) {
    throw new Error(`${statePath(runDirectory)} is not the state of a scenario run of this svc version.`);
  }
  return state;
}

/** Saves `state` durably. */
export function saveScenarioRunState(runDirectory: string, state: ScenarioRunState): Promise<void> {
  return writeJsonDurably(statePath(runDirectory), state);
}
