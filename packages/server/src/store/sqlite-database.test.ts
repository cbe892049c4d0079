import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, SCHEMA_VERSION } from './sqlite-database.js';

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
    old.exec(`
      CREATE TABLE traces (trace_id TEXT PRIMARY KEY, id TEXT NOT NULL UNIQUE, revision INTEGER NOT NULL,
        created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
      INSERT INTO traces VALUES ('ab', 'uuid-1', 3, 1, 2);
      PRAGMA user_version = 1;
    `);
    old.close();
    const db = openDatabase(path);
    const columns = (db.prepare('PRAGMA table_info(traces)').all() as { name: string }[]).map((c) => c.name);
    expect(columns).toEqual(['trace_id', 'revision', 'created_at', 'updated_at']);
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
    openDatabase(path).close();
    const db = openDatabase(path);
    expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(
      SCHEMA_VERSION,
    );
    expect((db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size).toBe(8192);
    db.close();
  });
});
