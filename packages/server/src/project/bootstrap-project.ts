/**
 * Creates the reference server's project and keys on first start, and finds them again on later
 * starts. Keys are stored hashed in the database; their plaintext is kept only in
 * `credentials.json` (mode 0600) in the data directory, so a restarted server can hand them back.
 * A data directory made before a key existed (the machine credential, the MCP Read key) gets that
 * key issued at its next start.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { KeyPreset } from '../auth/key-presets.js';
import { generateKey, hashKey, KeyRing, type StoredKey } from '../auth/key-ring.js';
import { inTransaction } from '../store/sqlite-database.js';
import { writeFileDurably } from '../store/write-file-durably.js';
import type { Project, ProjectKeys } from './project.js';

/** The file, in the data directory, holding the plaintext keys. */
export const CREDENTIALS_FILE = 'credentials.json';

/** The project, its plaintext keys and the key ring that authenticates requests. */
export interface BootstrappedProject {
  project: Project;
  keys: ProjectKeys;
  keyRing: KeyRing;
}

/** Every key a project is issued: its field in `ProjectKeys` and its preset. */
const ISSUED_KEYS: readonly { field: keyof ProjectKeys; preset: KeyPreset }[] = [
  { field: 'tracing', preset: 'tracing' },
  { field: 'read', preset: 'read' },
  { field: 'readWrite', preset: 'read_write' },
  { field: 'setup', preset: 'setup' },
  { field: 'machine', preset: 'machine' },
  // The MCP Read key: a second key of the Read preset, the one handed to agents.
  { field: 'mcp', preset: 'read' },
];

/** Keys every data directory had from the start; later ones are issued when missing. */
const ORIGINAL_FIELDS: readonly (keyof ProjectKeys)[] = ['tracing', 'read', 'readWrite', 'setup'];

function loadKeyRing(db: DatabaseSync): KeyRing {
  const rows = db
    .prepare('SELECT id, project_id, preset, key_hash FROM api_keys WHERE revoked_at IS NULL')
    .all() as { id: string; project_id: string; preset: KeyPreset; key_hash: Uint8Array }[];
  const keys: StoredKey[] = rows.map((r) => ({
    id: r.id,
    projectId: r.project_id,
    preset: r.preset,
    hash: Buffer.from(r.key_hash),
  }));
  return new KeyRing(keys);
}

function insertKey(db: DatabaseSync, projectId: string, preset: KeyPreset, key: string, now: string): void {
  db.prepare(
    'INSERT INTO api_keys (id, project_id, preset, key_hash, created_at) VALUES (?, ?, ?, ?, ?)',
  ).run(randomUUID(), projectId, preset, hashKey(key), now);
}

function writeCredentials(dataDir: string, projectId: string, keys: ProjectKeys): void {
  writeFileDurably(join(dataDir, CREDENTIALS_FILE), `${JSON.stringify({ projectId, keys }, null, 2)}\n`);
}

/**
 * Issues the keys added after the data directory was made: written to the credentials file
 * first, then stored hashed, so a start interrupted between the two stores the hash next time.
 */
function issueMissingKeys(
  db: DatabaseSync,
  dataDir: string,
  project: Project,
  keys: Partial<ProjectKeys>,
): ProjectKeys {
  const added = ISSUED_KEYS.filter(({ field }) => !ORIGINAL_FIELDS.includes(field));
  const completed = { ...keys } as ProjectKeys;
  const missing = added.filter(({ field }) => typeof keys[field] !== 'string');
  for (const { field, preset } of missing) completed[field] = generateKey(preset);
  if (missing.length > 0) writeCredentials(dataDir, project.id, completed);
  const stored = db.prepare('SELECT 1 FROM api_keys WHERE key_hash = ?');
  const now = new Date().toISOString();
  inTransaction(db, () => {
    for (const { field, preset } of added) {
      const key = completed[field];
      if (stored.get(hashKey(key)) === undefined) insertKey(db, project.id, preset, key, now);
    }
  });
  return completed;
}

function readCredentials(dataDir: string, project: Project): Partial<ProjectKeys> {
  const path = join(dataDir, CREDENTIALS_FILE);
  let parsed: { projectId?: unknown; keys?: Partial<ProjectKeys> };
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new Error(
      `The data directory ${dataDir} holds a project but its ${CREDENTIALS_FILE} is missing or unreadable. Keys are stored hashed and cannot be recovered: restore the file, or start on an empty data directory.`,
    );
  }
  const keys = parsed.keys ?? {};
  if (parsed.projectId !== project.id || ORIGINAL_FIELDS.some((field) => typeof keys[field] !== 'string')) {
    throw new Error(
      `${CREDENTIALS_FILE} in ${dataDir} does not belong to the stored project; restore the original file.`,
    );
  }
  return keys;
}

function createProject(db: DatabaseSync, dataDir: string): { project: Project; keys: ProjectKeys } {
  const project: Project = {
    id: randomUUID(),
    name: 'Local project',
    organizationId: randomUUID(),
    slug: 'local',
  };
  const keys = {} as ProjectKeys;
  for (const { field, preset } of ISSUED_KEYS) keys[field] = generateKey(preset);
  writeCredentials(dataDir, project.id, keys);
  const now = new Date().toISOString();
  inTransaction(db, () => {
    db.prepare(
      'INSERT INTO projects (id, name, organization_id, slug, created_at) VALUES (?, ?, ?, ?, ?)',
    ).run(project.id, project.name, project.organizationId, project.slug, now);
    for (const { field, preset } of ISSUED_KEYS) insertKey(db, project.id, preset, keys[field], now);
  });
  return { project, keys };
}

/** Finds the stored project and its keys, creating both when the database has none. */
export function bootstrapProject(db: DatabaseSync, dataDir: string): BootstrappedProject {
  const row = db.prepare('SELECT id, name, organization_id, slug FROM projects LIMIT 1').get() as
    | { id: string; name: string; organization_id: string; slug: string }
    | undefined;
  let project: Project;
  let keys: ProjectKeys;
  if (row === undefined) {
    ({ project, keys } = createProject(db, dataDir));
  } else {
    project = { id: row.id, name: row.name, organizationId: row.organization_id, slug: row.slug };
    keys = issueMissingKeys(db, dataDir, project, readCredentials(dataDir, project));
  }
  return { project, keys, keyRing: loadKeyRing(db) };
}
