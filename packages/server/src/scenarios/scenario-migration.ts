/**
 * The tables of scenarios, appended to the store's migrations (`schema-migrations.ts`):
 *
 * - `scenarios` and `scenario_versions`: published documents, immutable; a version keeps its
 *   public part, its world (state and tools with effects) and its sealed grading apart, and the
 *   registry records made for it (a frozen dataset version of its cases, a scorer version of each
 *   case's checks, a sealed hosted-judge scorer version of each `llm_judge` check).
 * - `scenario_runs`, `scenario_trials`, `scenario_tool_calls`: runs (each an experiment of the
 *   registry), their trials (each with its own world instance and the hash of its token) and every
 *   tool call in order.
 * - `scenario_local_agents`, `scenario_launches`: workers serving launched runs, and the runs
 *   launched for them with their leases.
 *
 * Scorer versions gain `sealed`: a sealed hosted judge's configuration is never shown.
 * Times a clock compares (expiry, liveness, leases) are milliseconds since the epoch; others ISO 8601.
 * @module
 */

/** The migration creating the scenario tables. */
export const SCENARIO_MIGRATION = `
  ALTER TABLE eval_scorer_versions ADD COLUMN sealed INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE scenarios (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    slug TEXT NOT NULL UNIQUE,
    dataset_id TEXT NOT NULL REFERENCES eval_datasets(id),
    scorer_id TEXT NOT NULL REFERENCES eval_scorers(id),
    created_at TEXT NOT NULL
  );
  CREATE TABLE scenario_versions (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    scenario_id TEXT NOT NULL REFERENCES scenarios(id),
    number INTEGER NOT NULL,
    digest TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT,
    public_part TEXT NOT NULL,
    world TEXT NOT NULL,
    grading TEXT NOT NULL,
    dataset_version_id TEXT NOT NULL REFERENCES eval_dataset_versions(id),
    registry TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (scenario_id, number),
    UNIQUE (scenario_id, digest)
  );
  CREATE TABLE scenario_runs (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    scenario_version_id TEXT NOT NULL REFERENCES scenario_versions(id),
    experiment_id TEXT NOT NULL REFERENCES eval_experiments(id),
    name TEXT NOT NULL,
    trials INTEGER NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX scenario_runs_by_version ON scenario_runs (scenario_version_id, seq);
  CREATE TABLE scenario_trials (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    run_id TEXT NOT NULL REFERENCES scenario_runs(id),
    case_key TEXT NOT NULL,
    trial INTEGER NOT NULL,
    world_id TEXT NOT NULL UNIQUE,
    token_hash TEXT NOT NULL UNIQUE,
    state TEXT NOT NULL,
    world_state TEXT NOT NULL,
    call_count INTEGER NOT NULL,
    trace_id TEXT,
    opened_at TEXT NOT NULL,
    expires_at_ms INTEGER NOT NULL,
    execution_state TEXT,
    output TEXT,
    error TEXT,
    seal TEXT,
    sealed_at TEXT,
    execution_id TEXT,
    evaluation_item_id TEXT,
    grading TEXT,
    UNIQUE (run_id, case_key, trial)
  );
  CREATE TABLE scenario_tool_calls (
    trial_id TEXT NOT NULL REFERENCES scenario_trials(id),
    seq INTEGER NOT NULL,
    tool TEXT NOT NULL,
    arguments TEXT NOT NULL,
    result TEXT NOT NULL,
    is_error INTEGER NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (trial_id, seq)
  ) WITHOUT ROWID;
  CREATE TABLE scenario_local_agents (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    agent_file TEXT NOT NULL,
    host TEXT NOT NULL,
    started_at TEXT NOT NULL,
    registered_at TEXT NOT NULL,
    last_seen_ms INTEGER NOT NULL,
    stopped_at TEXT
  );
  CREATE TABLE scenario_launches (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    run_id TEXT NOT NULL UNIQUE REFERENCES scenario_runs(id),
    agent_id TEXT REFERENCES scenario_local_agents(id),
    state TEXT NOT NULL,
    lease_expires_ms INTEGER,
    leases INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    completed_at TEXT
  );
  CREATE INDEX scenario_launches_by_state ON scenario_launches (state, seq);
`;
