/**
 * What a scenario run's directory keeps of each trial, saved durably before and after each step so
 * that a rerun (or a worker taking the run over) knows how far each trial got:
 * - `start`: the start's idempotency key and trace, saved before the call (a rerun replays it, and
 *   the service answers the same trial and token);
 * - `agentInvoked`: saved before `runMyAgent` is called. A trial with it and no outcome may have
 *   completed: its agent is never called again, the trial is sealed with an error;
 * - `outcome` and `seal.key`: the agent's output or error, saved before the seal (a rerun replays
 *   the seal with the same key);
 * - `sealed`: the seal was answered.
 *
 * The trial's token is never written down: it is a credential, and the start's replay answers it.
 * @module
 */
import { join } from 'node:path';
import type { JsonValue, SealTrialInput } from '@svc-run/sdk/evals';
import { readJson, writeJsonDurably } from '../durable-json.js';

/** One trial's record. */
export interface TrialRecord {
  caseKey: string;
  trial: number;
  start: { key: string; traceId: string; spanId: string };
  trialId?: string;
  agentInvoked?: boolean;
  outcome?: { output?: JsonValue; error?: { type: string; message?: string } };
  seal?: { key: string };
  sealed?: { outcome: string | null; failedChecks: string[] };
  /** Set when another process sealed the trial first (409 `already_sealed` to our seal). */
  sealedElsewhere?: boolean;
}

/** The records of a run's trials. */
export interface TrialRecords {
  format: 'svc-run.scenario-trials';
  version: 1;
  runId: string;
  trials: Record<string, TrialRecord>;
}

/** The record key of a trial. */
export function trialKey(caseKey: string, trial: number): string {
  return `${trial} ${caseKey}`;
}

/** The seal body of a saved outcome. */
export function sealBody(record: TrialRecord): Omit<SealTrialInput, 'idempotencyKey'> {
  const outcome = record.outcome!;
  return outcome.error === undefined
    ? outcome.output === undefined
      ? {}
      : { output: outcome.output }
    : { error: outcome.error };
}

function recordsPath(directory: string): string {
  return join(directory, 'trials.json');
}

/**
 * The trial records of `runId` in `directory` (empty when none were saved).
 *
 * @throws Error when the directory holds the records of another run.
 */
export async function readTrialRecords(directory: string, runId: string): Promise<TrialRecords> {
  const saved = await readJson<TrialRecords>(recordsPath(directory));
  if (saved === undefined) return { format: 'svc-run.scenario-trials', version: 1, runId, trials: {} };
  if (saved.format !== 'svc-run.scenario-trials' || saved.version !== 1 || saved.runId !== runId) {
    throw new Error(`${recordsPath(directory)} holds the trials of another run, or of another svc version.`);
  }
  return saved;
}

/** Saves `records` durably (one write at a time: callers serialize through {@link RecordsWriter}). */
export class RecordsWriter {
  readonly #directory: string;
  readonly records: TrialRecords;
  #queue: Promise<void> = Promise.resolve();

  constructor(directory: string, records: TrialRecords) {
    this.#directory = directory;
    this.records = records;
  }

  /** Saves the current records, after any save under way (each save writes everything). */
  save(): Promise<void> {
    const next = this.#queue.then(() => writeJsonDurably(recordsPath(this.#directory), this.records));
    this.#queue = next.catch(() => undefined);
    return next;
  }
}
