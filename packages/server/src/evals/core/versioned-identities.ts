/**
 * What datasets and scorers share: an identity (`name`, unique `slug`, optional `description`)
 * owning a numbered series of versions. One table of identities, one of their versions (with an
 * owner column and a `number`); the answer shows the newest version and the count.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { StatementSync } from 'node:sqlite';
import { ApiError } from '../../http/api-error.js';
import type { Identity } from './common-schemas.js';
import type { EvalContext } from './eval-context.js';
import { withOptional } from './json-columns.js';
import { type Page, type PageRequest, readPage } from './paging.js';
import { requireRow } from './require-row.js';

/** A dataset or a scorer, as the API shows it. */
export interface VersionedIdentity {
  id: string;
  name: string;
  slug: string;
  description?: string;
  /** The newest version, or `null` before the first. */
  latestVersionId: string | null;
  versionCount: number;
  createdAt: string;
}

/** Where one kind of identity is kept, and how messages name it. */
export interface IdentityTables {
  /** The table of identities (for example `eval_datasets`). */
  table: string;
  /** The table of their versions (for example `eval_dataset_versions`). */
  versions: string;
  /** The column of `versions` holding the identity's ID (for example `dataset_id`). */
  owner: string;
  /** The kind as messages name it (for example `dataset`). */
  noun: string;
}

interface IdentityRow {
  seq: number;
  id: string;
  name: string;
  slug: string;
  description: string | null;
  created_at: string;
  latest_version_id: string | null;
  version_count: number;
}

function toIdentity(row: IdentityRow): VersionedIdentity {
  const identity: VersionedIdentity = {
    id: row.id,
    name: row.name,
    slug: row.slug,
    latestVersionId: row.latest_version_id,
    versionCount: Number(row.version_count),
    createdAt: row.created_at,
  };
  return withOptional(identity, 'description', row.description ?? undefined);
}

/** The identities of one kind: create (unique slug), read by ID, list oldest first. */
export class VersionedIdentities {
  readonly #context: EvalContext;
  readonly #noun: string;
  readonly #insert: StatementSync;
  readonly #bySlug: StatementSync;
  readonly #one: StatementSync;
  readonly #page: StatementSync;

  constructor(context: EvalContext, tables: IdentityTables) {
    const { table, versions, owner } = tables;
    const columns = `i.seq, i.id, i.name, i.slug, i.description, i.created_at,
  (SELECT v.id FROM ${versions} v WHERE v.${owner} = i.id ORDER BY v.number DESC LIMIT 1) AS latest_version_id,
  (SELECT COUNT(*) FROM ${versions} v WHERE v.${owner} = i.id) AS version_count`;
    this.#context = context;
    this.#noun = tables.noun;
    this.#insert = context.db.prepare(
      `INSERT INTO ${table} (id, name, slug, description, created_at) VALUES (?, ?, ?, ?, ?)`,
    );
    this.#bySlug = context.db.prepare(`SELECT id FROM ${table} WHERE slug = ?`);
    this.#one = context.db.prepare(`SELECT ${columns} FROM ${table} i WHERE i.id = ?`);
    this.#page = context.db.prepare(
      `SELECT ${columns} FROM ${table} i WHERE i.seq > ? ORDER BY i.seq LIMIT ?`,
    );
  }

  /** Creates an identity. @throws 409 `conflict` when the slug is taken. */
  create(identity: Identity): VersionedIdentity {
    if (this.#bySlug.get(identity.slug) !== undefined) {
      throw new ApiError(
        409,
        'conflict',
        `A ${this.#noun} with this slug exists already; choose another slug.`,
      );
    }
    const id = randomUUID();
    this.#insert.run(id, identity.name, identity.slug, identity.description ?? null, this.#context.now());
    return this.get(id);
  }

  /** An identity. @throws 404 when unknown. */
  get(id: string): VersionedIdentity {
    return requireRow(this.#one, id, `No ${this.#noun} has this ID.`, toIdentity);
  }

  /** A page of identities, oldest first. */
  list(page: PageRequest): Page<VersionedIdentity> {
    return readPage(this.#page, page, toIdentity);
  }
}
