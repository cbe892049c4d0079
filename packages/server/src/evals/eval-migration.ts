/**
 * The evaluation registry's tables, appended to the store's migrations. Every table keeps a
 * `seq` (insertion order: the position cursors page by) and a UUID `id`. Times are ISO 8601
 * text. JSON columns hold SQL `NULL` for an omitted value and JSON text (maybe `null`) otherwise.
 * @module
 */

/** The migration creating the registry's tables. */
export const EVAL_REGISTRY_MIGRATION = `
  CREATE TABLE IF NOT EXISTS eval_idempotency (
    key TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    status INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS eval_datasets (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    slug TEXT NOT NULL UNIQUE,
    description TEXT,
    created_at TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS eval_dataset_versions (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    dataset_id TEXT NOT NULL REFERENCES eval_datasets(id),
    number INTEGER NOT NULL,
    revision INTEGER NOT NULL,
    from_version_id TEXT,
    frozen_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (dataset_id, number)
  );
  CREATE TABLE IF NOT EXISTS eval_cases (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    version_id TEXT NOT NULL REFERENCES eval_dataset_versions(id),
    kind TEXT NOT NULL,
    external_key TEXT NOT NULL,
    inputs TEXT NOT NULL,
    expected TEXT,
    metadata TEXT,
    files TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (version_id, external_key)
  );
  CREATE INDEX IF NOT EXISTS eval_cases_by_version ON eval_cases (version_id, seq);
  CREATE TABLE IF NOT EXISTS eval_scorers (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    slug TEXT NOT NULL UNIQUE,
    description TEXT,
    created_at TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS eval_scorer_versions (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    scorer_id TEXT NOT NULL REFERENCES eval_scorers(id),
    number INTEGER NOT NULL,
    definition TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (scorer_id, number)
  );
  CREATE TABLE IF NOT EXISTS eval_runs (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    experiment_id TEXT,
    scorer_version_ids TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS eval_experiments (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    dataset_version_id TEXT NOT NULL REFERENCES eval_dataset_versions(id),
    scorer_version_ids TEXT NOT NULL,
    config TEXT NOT NULL,
    evaluation_run_id TEXT NOT NULL REFERENCES eval_runs(id),
    created_at TEXT NOT NULL,
    finished_at TEXT
  );
  CREATE TABLE IF NOT EXISTS eval_trace_snapshots (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    trace_id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    span_count INTEGER NOT NULL,
    spans TEXT NOT NULL,
    logs TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS eval_executions (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    experiment_id TEXT NOT NULL REFERENCES eval_experiments(id),
    case_id TEXT NOT NULL REFERENCES eval_cases(id),
    attempt INTEGER NOT NULL,
    state TEXT NOT NULL,
    trace_external_id TEXT,
    previous_execution_id TEXT,
    replaced_by_execution_id TEXT,
    output TEXT,
    error TEXT,
    trace_evidence TEXT,
    omission_reason TEXT,
    trace_snapshot_id TEXT,
    subject_id TEXT,
    evaluation_item_id TEXT,
    started_at TEXT NOT NULL,
    completed_at TEXT,
    UNIQUE (experiment_id, case_id, attempt)
  );
  CREATE TABLE IF NOT EXISTS eval_subjects (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    execution_id TEXT NOT NULL UNIQUE REFERENCES eval_executions(id),
    created_at TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS eval_items (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    run_id TEXT NOT NULL REFERENCES eval_runs(id),
    subject_id TEXT NOT NULL REFERENCES eval_subjects(id),
    created_at TEXT NOT NULL,
    UNIQUE (run_id, subject_id)
  );
  CREATE INDEX IF NOT EXISTS eval_items_by_run ON eval_items (run_id, seq);
  CREATE TABLE IF NOT EXISTS eval_results (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    run_id TEXT NOT NULL REFERENCES eval_runs(id),
    item_id TEXT NOT NULL REFERENCES eval_items(id),
    scorer_version_id TEXT NOT NULL REFERENCES eval_scorer_versions(id),
    score TEXT NOT NULL,
    source_digest TEXT,
    judge_job_id TEXT,
    created_at TEXT NOT NULL,
    UNIQUE (item_id, scorer_version_id)
  );
  CREATE INDEX IF NOT EXISTS eval_results_by_run ON eval_results (run_id, seq);
  CREATE TABLE IF NOT EXISTS eval_judge_jobs (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    run_id TEXT NOT NULL REFERENCES eval_runs(id),
    item_id TEXT NOT NULL REFERENCES eval_items(id),
    scorer_version_id TEXT NOT NULL REFERENCES eval_scorer_versions(id),
    state TEXT NOT NULL,
    result_id TEXT,
    error TEXT,
    cancel_reason TEXT,
    created_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT
  );
  CREATE INDEX IF NOT EXISTS eval_judge_jobs_by_run ON eval_judge_jobs (run_id, seq);
  CREATE INDEX IF NOT EXISTS eval_judge_jobs_by_state ON eval_judge_jobs (state, seq);
`;

/** The migration creating the table of case-file artifacts (bytes uploaded for case files). */
export const EVAL_ARTIFACTS_MIGRATION = `
  CREATE TABLE IF NOT EXISTS eval_artifacts (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    sha256 TEXT NOT NULL,
    size INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    name TEXT NOT NULL,
    stored_at TEXT,
    created_at TEXT NOT NULL
  );
`;

/**
 * The migration creating the table of trace-snapshot files: one row per file a snapshot's copied
 * records list (`svc.blobs` entries, `svc.file` events), saying whether the snapshot's trace held
 * the bytes when the snapshot was taken (`size`, `content_type` and `stored_at` of that holding;
 * `NULL` when it did not). Bytes are content-addressed and nothing erases them yet; the rows let a
 * later erasure of trace files keep the files snapshots hold (see `snapshot-files.ts`).
 */
export const EVAL_SNAPSHOT_FILES_MIGRATION = `
  CREATE TABLE IF NOT EXISTS eval_trace_snapshot_files (
    snapshot_id TEXT NOT NULL REFERENCES eval_trace_snapshots(id),
    sha256 TEXT NOT NULL,
    size INTEGER,
    content_type TEXT,
    stored_at INTEGER,
    PRIMARY KEY (snapshot_id, sha256)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS eval_trace_snapshot_files_by_sha256 ON eval_trace_snapshot_files (sha256);
`;
