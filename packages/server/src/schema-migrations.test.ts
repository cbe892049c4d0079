import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from './schema-migrations.js';
import { openDatabase } from './store/sqlite-database.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-db-'));
  dirs.push(dir);
  return join(dir, 'svc.sqlite');
}

describe('openDatabase migrations', () => {
  it('brings a store of the first schema (traces with an id column) to the current one, keeping its traces', () => {
    const path = tempPath();
    const old = new DatabaseSync(path);
    old.exec(MIGRATIONS[0]!);
    old.exec(`
      DROP TABLE traces;
      CREATE TABLE traces (trace_id TEXT PRIMARY KEY, id TEXT NOT NULL UNIQUE, revision INTEGER NOT NULL,
        created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
      INSERT INTO traces VALUES ('ab', 'uuid-1', 3, 1, 2);
      PRAGMA user_version = 1;
    `);
    old.close();
    const db = openDatabase(path, MIGRATIONS);
    const columns = (db.prepare('PRAGMA table_info(traces)').all() as { name: string }[]).map((c) => c.name);
    expect(columns).toEqual(['trace_no', 'trace_id', 'revision', 'created_at', 'updated_at']);
    expect(db.prepare('SELECT trace_id, revision FROM traces').all()).toEqual([
      { trace_id: 'ab', revision: 3 },
    ]);
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]
    ).map((t) => t.name);
    expect(tables).toEqual(expect.arrayContaining(['blob_reservations', 'trace_files']));
    expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(
      SCHEMA_VERSION,
    );
    db.close();
  });

  it('creates a new store at the current version and reopens it unchanged', () => {
    const path = tempPath();
    openDatabase(path, MIGRATIONS).close();
    const db = openDatabase(path, MIGRATIONS);
    expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(
      SCHEMA_VERSION,
    );
    expect((db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size).toBe(8192);
    db.close();
  });

  it('numbers the traces of a store keyed by trace ID, keeping every span, event, link and log record', () => {
    const path = tempPath();
    const old = new DatabaseSync(path);
    for (const migration of MIGRATIONS.slice(0, 7)) old.exec(migration);
    old.exec(`
      INSERT INTO resources VALUES (1, 'r', '[]', 0, '');
      INSERT INTO scopes VALUES (1, 's', 'lib', '1', '[]', 0, '');
      INSERT INTO traces VALUES ('bb', 2, 20, 21), ('aa', 1, 10, 10);
      INSERT INTO spans (id, trace_id, span_id, parent_span_id, trace_state, flags, name, kind, start_time_unix_nano,
        end_time_unix_nano, attributes, dropped_attributes_count, dropped_events_count, dropped_links_count,
        status_code, status_message, fields, resource_id, scope_id)
      VALUES (1, 'aa', 's1', '', '', 0, 'one', 1, 5, 6, '[{"key":"k","value":{}}]', 0, 0, 0, 0, '', 3, 1, 1),
        (2, 'bb', 's2', '', '', 0, 'two', 1, 7, 8, '[]', 0, 0, 0, 2, 'failed', 0, 1, 1);
      INSERT INTO span_events VALUES ('aa', 's1', 0, 5, 'e', '[]', 0);
      INSERT INTO span_links VALUES ('bb', 's2', 0, 'cc', 'l1', '', 0, '[]', 0);
      INSERT INTO log_records (id, trace_id, span_id, time_unix_nano, observed_time_unix_nano, severity_number,
        severity_text, event_name, body, attributes, dropped_attributes_count, flags, fields, resource_id, scope_id)
      VALUES (1, 'bb', 's2', 9, 9, 9, 'INFO', '', '{"stringValue":"in"}', '[]', 0, 0, 0, 1, 1),
        (2, '', '', 9, 9, 9, 'INFO', '', '{"stringValue":"out"}', '[]', 0, 0, 0, 1, 1),
        (3, 'dd', '', 9, 9, 9, 'INFO', '', NULL, '[]', 0, 0, 0, 1, 1);
      PRAGMA user_version = 7;
    `);
    old.close();

    const db = openDatabase(path, MIGRATIONS);
    try {
      // Numbered in order of arrival; a log record's trace without a row of its own gets one.
      expect(db.prepare('SELECT trace_no, trace_id, revision FROM traces ORDER BY trace_no').all()).toEqual([
        { trace_no: 1, trace_id: 'aa', revision: 1 },
        { trace_no: 2, trace_id: 'bb', revision: 2 },
        { trace_no: 3, trace_id: 'dd', revision: 1 },
      ]);
      expect(
        db
          .prepare(
            'SELECT id, trace_no, span_id, name, attributes, status_message, fields FROM spans ORDER BY id',
          )
          .all(),
      ).toEqual([
        {
          id: 1,
          trace_no: 1,
          span_id: 's1',
          name: 'one',
          attributes: '[{"key":"k","value":{}}]',
          status_message: '',
          fields: 3,
        },
        {
          id: 2,
          trace_no: 2,
          span_id: 's2',
          name: 'two',
          attributes: '[]',
          status_message: 'failed',
          fields: 0,
        },
      ]);
      expect(db.prepare('SELECT trace_no, span_id, name FROM span_events').all()).toEqual([
        { trace_no: 1, span_id: 's1', name: 'e' },
      ]);
      expect(db.prepare('SELECT trace_no, linked_trace_id, linked_span_id FROM span_links').all()).toEqual([
        { trace_no: 2, linked_trace_id: 'cc', linked_span_id: 'l1' },
      ]);
      expect(db.prepare('SELECT id, trace_no, body FROM log_records ORDER BY id').all()).toEqual([
        { id: 1, trace_no: 2, body: '{"stringValue":"in"}' },
        { id: 2, trace_no: null, body: '{"stringValue":"out"}' },
        { id: 3, trace_no: 3, body: null },
      ]);
      // A span is unique within its trace, by number.
      expect(() =>
        db.exec(`INSERT INTO spans (trace_no, span_id, parent_span_id, trace_state, flags, name, kind,
          start_time_unix_nano, end_time_unix_nano, attributes, dropped_attributes_count, dropped_events_count,
          dropped_links_count, status_code, status_message, fields, resource_id, scope_id)
          VALUES (1, 's1', '', '', 0, 'dup', 1, 0, 0, '[]', 0, 0, 0, 0, '', 0, 1, 1)`),
      ).toThrow(/UNIQUE/);
      expect((db.prepare('PRAGMA foreign_key_check').all() as unknown[]).length).toBe(0);
    } finally {
      db.close();
    }
  });
});
