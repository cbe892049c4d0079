/**
 * The tables of the trace index (see `trace-indexer.ts`), appended to the schema's history.
 * @module
 */

/**
 * - `span_facts`: per span (by its row ID), what the outline and the search show without the
 *   attribute values: model, tokens, error.
 * - `trace_index`: per trace, its time span, root name, counts and token totals, ordered by start
 *   for "newest first".
 * - `trace_terms`: per trace, the exact values a search can name: service, session, user, model,
 *   span name (by `span_names` row) and short attribute values. A term is `(kind, value)`.
 * - `span_names`: every distinct span name once, with a trigram full-text index, so a substring
 *   search finds the names first and the traces through their terms.
 * - `trace_index_state`: the last span and log row indexed; `span_changes`: spans re-sent with the
 *   same ID since (a trigger notes them; the writer's upsert keeps their row ID).
 */
export const TRACE_INDEX_MIGRATION = `
  CREATE TABLE span_facts (
    span_row INTEGER PRIMARY KEY,
    trace_no INTEGER NOT NULL,
    model TEXT,
    input_tokens INTEGER,
    output_tokens INTEGER,
    error_type TEXT,
    error INTEGER NOT NULL
  );
  CREATE INDEX span_facts_by_trace ON span_facts (trace_no);
  CREATE TABLE trace_index (
    trace_no INTEGER PRIMARY KEY,
    start_ns INTEGER NOT NULL,
    end_ns INTEGER NOT NULL,
    duration_ns INTEGER NOT NULL,
    root_name TEXT,
    span_count INTEGER NOT NULL,
    error_count INTEGER NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL
  );
  CREATE INDEX trace_index_by_start ON trace_index (start_ns, trace_no);
  CREATE INDEX trace_index_errors ON trace_index (start_ns, trace_no) WHERE error_count > 0;
  CREATE TABLE trace_terms (
    kind INTEGER NOT NULL,
    value TEXT NOT NULL,
    trace_no INTEGER NOT NULL,
    PRIMARY KEY (kind, value, trace_no)
  ) WITHOUT ROWID;
  CREATE INDEX trace_terms_by_trace ON trace_terms (trace_no);
  CREATE TABLE span_names (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
  CREATE VIRTUAL TABLE span_names_text USING fts5 (name, content = 'span_names', content_rowid = 'id', tokenize = 'trigram');
  CREATE TABLE trace_index_state (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    span_row INTEGER NOT NULL,
    log_row INTEGER NOT NULL
  );
  INSERT INTO trace_index_state VALUES (1, 0, 0);
  CREATE TABLE span_changes (span_row INTEGER PRIMARY KEY);
  -- Not INSERT OR IGNORE: inside a trigger the outer statement's conflict rule (the writer's
  -- upsert: abort) would override it.
  CREATE TRIGGER spans_changed AFTER UPDATE ON spans
    BEGIN INSERT INTO span_changes SELECT new.id WHERE NOT EXISTS (SELECT 1 FROM span_changes WHERE span_row = new.id); END;
`;
