/**
 * What `svc eval` keeps in a run's directory besides the runner's checkpoint: the intent and answer
 * of its own mutations (the experiment's creation, the judge job requests), saved before and after
 * each call so that a rerun replays a call with the same idempotency key instead of making another,
 * and whether the run's report was given.
 * @module
 */
import { join } from 'node:path';
import type { CreatedExperiment, CreatedJudgeJobs, JudgeJobRequest } from '@svc-run/sdk/evals';
import { readJson, writeJsonDurably } from './durable-json.js';

/** A mutation: its key and body saved before the call, its answer after. */
export interface SavedCall<TBody, TResult> {
  key: string;
  body: TBody;
  result?: TResult;
}

/** The body of `createExperiment` (its key apart). */
export interface ExperimentBody {
  name: string;
  datasetVersionId: string;
  scorerVersionIds: string[];
  config: Record<string, unknown>;
}

/** The state of one run. */
export interface RunState {
  format: 'svc-run.eval-run';
  version: 1;
  experiment: SavedCall<ExperimentBody, CreatedExperiment>;
  judgeJobs: SavedCall<{ jobs: JudgeJobRequest[] }, CreatedJudgeJobs>[];
  /** Set once the run's report was given: a rerun of the command then starts a new run. */
  reportedAt?: string;
}

/** The file of a run's state. */
export function runStatePath(runDirectory: string): string {
  return join(runDirectory, 'eval-run.json');
}

/** The state of the run in `runDirectory`, or `undefined` before its first save. */
export async function readRunState(runDirectory: string): Promise<RunState | undefined> {
  const state = await readJson<RunState>(runStatePath(runDirectory));
  if (state !== undefined && (state.format !== 'svc-run.eval-run' || state.version !== 1)) {
    throw new Error(`${runStatePath(runDirectory)} is not the state of a run of this svc version.`);
  }
  return state;
}

/** Saves `state` durably. */
export function saveRunState(runDirectory: string, state: RunState): Promise<void> {
  return writeJsonDurably(runStatePath(runDirectory), state);
}
