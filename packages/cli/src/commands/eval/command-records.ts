/**
 * The report of each command run, saved in the run's directory (`commands/<trace ID>.json`) as soon
 * as the command ends, so that a resumed run can still tell how each case's command ended; and,
 * before each spawn, the intent to spawn it (`commands/<trace ID>.starting.json`), so that a rerun
 * after a crash knows whether a command may have run.
 * @module
 */
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CaseOutput } from './case-outputs.js';
import { readJson, writeJsonDurably } from './durable-json.js';
import type { StreamTail } from './stream-tail.js';

/** How a case's command ended. */
export interface CommandRecord {
  caseId: string;
  caseKey: string;
  /** The attempt's trace (32 hex). */
  traceId: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  spawnError?: string;
  durationMillis: number;
  stdout: StreamTail;
  stderr: StreamTail;
  /** The case's error, when the case ended in one (the execution's error type and a message). */
  error?: { type: string; message: string };
  /** The execution output, when the command succeeded: what the scorers saw. */
  output?: CaseOutput;
  /** The output files, when the command succeeded and wrote some. */
  outputFiles?: { name: string; contentType: string; size: number; sha256: string }[];
}

const TRACE_ID = /^[0-9a-f]{32}$/;

/** The command records of one run. */
export class CommandRecords {
  readonly #directory: string;

  constructor(runDirectory: string) {
    this.#directory = join(runDirectory, 'commands');
  }

  /** Saves `record` durably. */
  async save(record: CommandRecord): Promise<void> {
    if (!TRACE_ID.test(record.traceId)) throw new Error('invalid trace ID');
    await mkdir(this.#directory, { recursive: true, mode: 0o700 });
    await writeJsonDurably(join(this.#directory, `${record.traceId}.json`), record);
  }

  /**
   * Saves, durably, that the command of the attempt of trace `traceId` is about to be spawned:
   * written before the spawn, so that a rerun after a crash knows whether it may have run.
   */
  async markStarting(traceId: string, caseKey: string): Promise<void> {
    if (!TRACE_ID.test(traceId)) throw new Error('invalid trace ID');
    await mkdir(this.#directory, { recursive: true, mode: 0o700 });
    await writeJsonDurably(join(this.#directory, `${traceId}.starting.json`), {
      caseKey,
      at: new Date().toISOString(),
    });
  }

  /** Whether the command of the attempt of trace `traceId` may have been spawned (see {@link markStarting}). */
  async mayHaveStarted(traceId: string): Promise<boolean> {
    if (!TRACE_ID.test(traceId)) return true;
    for (const name of [`${traceId}.starting.json`, `${traceId}.json`]) {
      if ((await readJson(join(this.#directory, name))) !== undefined) return true;
    }
    return false;
  }

  /** Every saved record, by trace ID. */
  async all(): Promise<Map<string, CommandRecord>> {
    const records = new Map<string, CommandRecord>();
    let names: string[];
    try {
      names = await readdir(this.#directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return records;
      throw error;
    }
    for (const name of names) {
      const match = /^([0-9a-f]{32})\.json$/.exec(name);
      if (match === null) continue;
      const record = await readJson<CommandRecord>(join(this.#directory, name));
      if (record !== undefined) records.set(match[1]!, record);
    }
    return records;
  }
}
