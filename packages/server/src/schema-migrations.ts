/**
 * The schema of the service's embedded database, as the ordered list of migrations every store
 * has been brought through. Features own their tables, but the order is history: a migration's
 * position is its schema version (`PRAGMA user_version`), so the list is composed here, at the
 * top, and handed to `openDatabase` (`store/sqlite-database.ts`); the store itself knows no feature's tables.
 * @module
 */
import {
  EVAL_ARTIFACTS_MIGRATION,
  EVAL_REGISTRY_MIGRATION,
  EVAL_SNAPSHOT_FILES_MIGRATION,
} from './evals/eval-migration.js';
import { EVAL_MANAGED_MIGRATION } from './evals/managed/managed-migration.js';
import { TRACE_INDEX_MIGRATION } from './read/trace-index/trace-index-migration.js';
import { SCENARIO_MIGRATION } from './scenarios/scenario-migration.js';

/**
 * Each trace gets a row number (`trace_no`), in order of first arrival, and spans, events, links
 * and log records refer to their trace by it instead of by the trace ID. Trace IDs are random:
 * indexes keyed by them took each stored record to a random index page, so a commit of a few
 * thousand spans rewrote hundreds of index pages (more, the larger the store). Keyed by the
 * row number, records of new traces go to the end of the index; only the `traces` table keeps an
 * index on the trace ID, touched once per trace and request.
 */
const TRACE_NUMBER_MIGRATION = `
  CREATE TABLE traces_numbered (
    trace_no INTEGER PRIMARY KEY,
    trace_id TEXT NOT NULL UNIQUE,
    revision INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  INSERT INTO traces_numbered (trace_id, revision, created_at, updated_at)
    SELECT trace_id, revision, created_at, updated_at FROM traces ORDER BY created_at, trace_id;
  -- Every write touched the traces of its records, so each record's trace has a row; should one
  -- not, it gets one rather than losing the record.
  INSERT INTO traces_numbered (trace_id, revision, created_at, updated_at)
    SELECT DISTINCT trace_id, 1, 0, 0 FROM (
      SELECT trace_id FROM spans UNION SELECT trace_id FROM log_records WHERE trace_id <> ''
    ) WHERE trace_id NOT IN (SELECT trace_id FROM traces_numbered);

  CREATE TABLE spans_numbered (
    id INTEGER PRIMARY KEY,
    trace_no INTEGER NOT NULL,
    span_id TEXT NOT NULL,
    parent_span_id TEXT NOT NULL,
    trace_state TEXT NOT NULL,
    flags INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind INTEGER NOT NULL,
    start_time_unix_nano INTEGER NOT NULL,
    end_time_unix_nano INTEGER NOT NULL,
    attributes TEXT NOT NULL,
    dropped_attributes_count INTEGER NOT NULL,
    dropped_events_count INTEGER NOT NULL,
    dropped_links_count INTEGER NOT NULL,
    status_code INTEGER NOT NULL,
    status_message TEXT NOT NULL,
    fields INTEGER NOT NULL,
    resource_id INTEGER NOT NULL REFERENCES resources(id),
    scope_id INTEGER NOT NULL REFERENCES scopes(id),
    UNIQUE (trace_no, span_id)
  );
  INSERT INTO spans_numbered
    SELECT s.id, t.trace_no, s.span_id, s.parent_span_id, s.trace_state, s.flags, s.name, s.kind,
      s.start_time_unix_nano, s.end_time_unix_nano, s.attributes, s.dropped_attributes_count,
      s.dropped_events_count, s.dropped_links_count, s.status_code, s.status_message, s.fields,
      s.resource_id, s.scope_id
    FROM spans s JOIN traces_numbered t ON t.trace_id = s.trace_id ORDER BY s.id;

  CREATE TABLE span_events_numbered (
    trace_no INTEGER NOT NULL,
    span_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    time_unix_nano INTEGER NOT NULL,
    name TEXT NOT NULL,
    attributes TEXT NOT NULL,
    dropped_attributes_count INTEGER NOT NULL,
    PRIMARY KEY (trace_no, span_id, position)
  );
  INSERT INTO span_events_numbered
    SELECT t.trace_no, e.span_id, e.position, e.time_unix_nano, e.name, e.attributes, e.dropped_attributes_count
    FROM span_events e JOIN traces_numbered t ON t.trace_id = e.trace_id;

  CREATE TABLE span_links_numbered (
    trace_no INTEGER NOT NULL,
    span_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    linked_trace_id TEXT NOT NULL,
    linked_span_id TEXT NOT NULL,
    trace_state TEXT NOT NULL,
    flags INTEGER NOT NULL,
    attributes TEXT NOT NULL,
    dropped_attributes_count INTEGER NOT NULL,
    PRIMARY KEY (trace_no, span_id, position)
  );
  INSERT INTO span_links_numbered
    SELECT t.trace_no, l.span_id, l.position, l.linked_trace_id, l.linked_span_id, l.trace_state, l.flags,
      l.attributes, l.dropped_attributes_count
    FROM span_links l JOIN traces_numbered t ON t.trace_id = l.trace_id;

  -- A log record outside any trace has no trace number (NULL).
  CREATE TABLE log_records_numbered (
    id INTEGER PRIMARY KEY,
    trace_no INTEGER,
    span_id TEXT NOT NULL,
    time_unix_nano INTEGER NOT NULL,
    observed_time_unix_nano INTEGER NOT NULL,
    severity_number INTEGER NOT NULL,
    severity_text TEXT NOT NULL,
    event_name TEXT NOT NULL,
    body TEXT,
    attributes TEXT NOT NULL,
    dropped_attributes_count INTEGER NOT NULL,
    flags INTEGER NOT NULL,
    fields INTEGER NOT NULL,
    resource_id INTEGER NOT NULL REFERENCES resources(id),
    scope_id INTEGER NOT NULL REFERENCES scopes(id)
  );
  INSERT INTO log_records_numbered
    SELECT l.id, t.trace_no, l.span_id, l.time_unix_nano, l.observed_time_unix_nano, l.severity_number,
      l.severity_text, l.event_name, l.body, l.attributes, l.dropped_attributes_count, l.flags, l.fields,
      l.resource_id, l.scope_id
    FROM log_records l LEFT JOIN traces_numbered t ON l.trace_id <> '' AND t.trace_id = l.trace_id ORDER BY l.id;

  DROP TABLE spans;
  DROP TABLE span_events;
  DROP TABLE span_links;
  DROP TABLE log_records;
  DROP TABLE traces;
  ALTER TABLE traces_numbered RENAME TO traces;
  ALTER TABLE spans_numbered RENAME TO spans;
  ALTER TABLE span_events_numbered RENAME TO span_events;
  ALTER TABLE span_links_numbered RENAME TO span_links;
  ALTER TABLE log_records_numbered RENAME TO log_records;
  CREATE INDEX log_records_by_trace ON log_records (trace_no, span_id) WHERE trace_no IS NOT NULL;
`;

/** The schema migrations, in order; a store's `user_version` is how many it has applied. */
/** Every migration, in the order applied; never reorder or edit one that has shipped. */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE projects (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    organization_id TEXT NOT NULL,
    slug TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
  );
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id),
    preset TEXT NOT NULL,
    key_hash BLOB NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    revoked_at TEXT
  );
  CREATE TABLE resources (
    id INTEGER PRIMARY KEY,
    digest TEXT NOT NULL UNIQUE,
    attributes TEXT NOT NULL,
    dropped_attributes_count INTEGER NOT NULL,
    schema_url TEXT NOT NULL
  );
  CREATE TABLE scopes (
    id INTEGER PRIMARY KEY,
    digest TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    version TEXT NOT NULL,
    attributes TEXT NOT NULL,
    dropped_attributes_count INTEGER NOT NULL,
    schema_url TEXT NOT NULL
  );
  CREATE TABLE traces (
    trace_id TEXT PRIMARY KEY,
    revision INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE spans (
    id INTEGER PRIMARY KEY,
    trace_id TEXT NOT NULL,
    span_id TEXT NOT NULL,
    parent_span_id TEXT NOT NULL,
    trace_state TEXT NOT NULL,
    flags INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind INTEGER NOT NULL,
    start_time_unix_nano INTEGER NOT NULL,
    end_time_unix_nano INTEGER NOT NULL,
    attributes TEXT NOT NULL,
    dropped_attributes_count INTEGER NOT NULL,
    dropped_events_count INTEGER NOT NULL,
    dropped_links_count INTEGER NOT NULL,
    status_code INTEGER NOT NULL,
    status_message TEXT NOT NULL,
    fields INTEGER NOT NULL,
    resource_id INTEGER NOT NULL REFERENCES resources(id),
    scope_id INTEGER NOT NULL REFERENCES scopes(id),
    UNIQUE (trace_id, span_id)
  );
  CREATE TABLE span_events (
    trace_id TEXT NOT NULL,
    span_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    time_unix_nano INTEGER NOT NULL,
    name TEXT NOT NULL,
    attributes TEXT NOT NULL,
    dropped_attributes_count INTEGER NOT NULL,
    PRIMARY KEY (trace_id, span_id, position)
  );
  CREATE TABLE span_links (
    trace_id TEXT NOT NULL,
    span_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    linked_trace_id TEXT NOT NULL,
    linked_span_id TEXT NOT NULL,
    trace_state TEXT NOT NULL,
    flags INTEGER NOT NULL,
    attributes TEXT NOT NULL,
    dropped_attributes_count INTEGER NOT NULL,
    PRIMARY KEY (trace_id, span_id, position)
  );
  CREATE TABLE log_records (
    id INTEGER PRIMARY KEY,
    trace_id TEXT NOT NULL,
    span_id TEXT NOT NULL,
    time_unix_nano INTEGER NOT NULL,
    observed_time_unix_nano INTEGER NOT NULL,
    severity_number INTEGER NOT NULL,
    severity_text TEXT NOT NULL,
    event_name TEXT NOT NULL,
    body TEXT,
    attributes TEXT NOT NULL,
    dropped_attributes_count INTEGER NOT NULL,
    flags INTEGER NOT NULL,
    fields INTEGER NOT NULL,
    resource_id INTEGER NOT NULL REFERENCES resources(id),
    scope_id INTEGER NOT NULL REFERENCES scopes(id)
  );
  CREATE INDEX log_records_by_trace ON log_records (trace_id, span_id) WHERE trace_id <> '';
  `,
  // Stores made before the service trace ID was derived from the trace ID have an \`id\` column
  // (and a unique index on it) in \`traces\`: rebuild the table in its final shape, from either form.
  `
  ALTER TABLE traces RENAME TO traces_before_2;
  CREATE TABLE traces (
    trace_id TEXT PRIMARY KEY,
    revision INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  INSERT INTO traces (trace_id, revision, created_at, updated_at)
    SELECT trace_id, revision, created_at, updated_at FROM traces_before_2;
  DROP TABLE traces_before_2;
  `,
  // Media files: upload reservations (what a signed PUT link may store) and which trace holds
  // which file. The bytes live on disk, content-addressed (see media/local-blob-store.ts); a file
  // held by several traces is stored once. Nothing here is written by ingest.
  `
  CREATE TABLE blob_reservations (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id),
    trace_id TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    size INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    key TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX blob_reservations_by_expiry ON blob_reservations (expires_at);
  CREATE TABLE trace_files (
    project_id TEXT NOT NULL REFERENCES projects(id),
    trace_id TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    size INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    first_key TEXT NOT NULL,
    stored_at INTEGER NOT NULL,
    PRIMARY KEY (project_id, trace_id, sha256)
  ) WITHOUT ROWID;
  `,
  // The evaluation registry (datasets, scorers, experiments, runs, results, judge jobs).
  EVAL_REGISTRY_MIGRATION,
  // Case-file artifacts of the evaluation registry (the bytes live in the blob store).
  EVAL_ARTIFACTS_MIGRATION,
  // Which files each trace snapshot lists, and whether its trace held their bytes when it was taken.
  EVAL_SNAPSHOT_FILES_MIGRATION,
  // Managed targets: registered targets, dispatches, claims and outcomes' output files and usage.
  EVAL_MANAGED_MIGRATION,
  TRACE_NUMBER_MIGRATION,
  // The trace index of the read model: span facts, trace summaries and search terms.
  TRACE_INDEX_MIGRATION,
  // Scenarios: versions, runs, trials and their worlds, tool calls, local agents and launches; and
  // sealed scorer versions (a scenario's hosted judges).
  SCENARIO_MIGRATION,
];

/** The schema version (`PRAGMA user_version`) of an up-to-date database: one per migration. */
export const SCHEMA_VERSION = MIGRATIONS.length;
