/**
 * The evaluation registry: its stores on the embedded database, built once per server.
 * @module
 */
import type { DatabaseSync } from 'node:sqlite';
import type { TraceStore } from '../store/trace-store.js';
import { createEvalContext, type EvalContext } from './core/eval-context.js';
import { DatasetStore } from './datasets/dataset-store.js';
import { ScorerStore } from './scorers/scorer-store.js';

/** What the registry is built on. */
export interface EvalRegistryOptions {
  /** The open, migrated database of the server. */
  db: DatabaseSync;
  /** The trace store: completions with trace evidence snapshot their trace from it. */
  traceStore: TraceStore;
}

/** The evaluation registry of one server. */
export interface EvalRegistry {
  readonly context: EvalContext;
  readonly datasets: DatasetStore;
  readonly scorers: ScorerStore;
  /** Stops background work (judge jobs in flight). */
  close(): Promise<void>;
}

/** Builds the registry. */
export function createEvalRegistry(options: EvalRegistryOptions): EvalRegistry {
  const context = createEvalContext(options.db, options.traceStore);
  return {
    context,
    datasets: new DatasetStore(context),
    scorers: new ScorerStore(context),
    close: async () => {},
  };
}
