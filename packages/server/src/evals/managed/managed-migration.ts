/**
 * The tables of managed targets, appended to the store's migrations: registered targets, the
 * dispatches that deliver executions to them, and the claims (with the saved outcome's output
 * files and usage) of the executions they run.
 * @module
 */

/** The migration creating the managed-target tables. */
export const EVAL_MANAGED_MIGRATION = `
  CREATE TABLE IF NOT EXISTS eval_managed_targets (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    url TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS eval_managed_dispatches (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    target_id TEXT NOT NULL REFERENCES eval_managed_targets(id),
    execution_id TEXT NOT NULL UNIQUE REFERENCES eval_executions(id),
    state TEXT NOT NULL,
    response_status INTEGER,
    response TEXT,
    failure TEXT,
    created_at TEXT NOT NULL,
    finished_at TEXT
  );
  CREATE TABLE IF NOT EXISTS eval_managed_claims (
    execution_id TEXT PRIMARY KEY REFERENCES eval_executions(id),
    claim_id TEXT NOT NULL UNIQUE,
    claimed_at TEXT NOT NULL,
    output_files TEXT,
    usage TEXT,
    outcome_saved_at TEXT
  ) WITHOUT ROWID;
`;
