/**
 * What the evaluation registry's routes and stores share: the database, the trace store (for
 * trace snapshots), the idempotency ledger and the clock.
 * @module
 */
import type { DatabaseSync } from 'node:sqlite';
import type { TraceStore } from '../../ingest/trace-store.js';
import { IdempotencyLedger } from './idempotency-ledger.js';

/** Shared by the registry's routes. */
export interface EvalContext {
  db: DatabaseSync;
  traceStore: TraceStore;
  ledger: IdempotencyLedger;
  /** The current time as ISO 8601. */
  now(): string;
  /** The origin of links the registry hands out; the request's own origin when unset. */
  publicOrigin?: string | undefined;
}

/** Builds the context on an open, migrated database. */
export function createEvalContext(db: DatabaseSync, traceStore: TraceStore): EvalContext {
  return { db, traceStore, ledger: new IdempotencyLedger(db), now: () => new Date().toISOString() };
}
