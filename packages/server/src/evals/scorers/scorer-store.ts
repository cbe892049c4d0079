/**
 * Scorers and their immutable versions in the embedded database. Methods run inside the calling
 * route's transaction.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { StatementSync } from 'node:sqlite';
import type { z } from '@hono/zod-openapi';
import { ApiError } from '../../http/api-error.js';
import type { Identity } from '../core/common-schemas.js';
import type { EvalContext } from '../core/eval-context.js';
import { withOptional } from '../core/json-columns.js';
import { type Page, type PageRequest, toPage } from '../core/paging.js';
import type { MetricDefinition } from './metric-schemas.js';
import type { ScorerDefinitionSchema, ScorerSchema } from './scorer-schemas.js';

export type Scorer = z.output<typeof ScorerSchema>;
/** A definition as published. */
export type ScorerDefinitionInput = z.output<typeof ScorerDefinitionSchema>;

/** A stored definition: defaults applied (built-in metrics, `caseSensitive`, `sha256:` digests). */
export type StoredDefinition = ScorerDefinitionInput & { metrics: MetricDefinition[] };

/** An immutable scorer version. */
export interface ScorerVersion {
  id: string;
  scorerId: string;
  number: number;
  definition: StoredDefinition;
  createdAt: string;
}

interface ScorerRow {
  seq: number;
  id: string;
  name: string;
  slug: string;
  description: string | null;
  created_at: string;
  latest_version_id: string | null;
  version_count: number;
}

interface VersionRow {
  seq: number;
  id: string;
  scorer_id: string;
  number: number;
  definition: string;
  created_at: string;
}

const SCORER_COLUMNS = `s.seq, s.id, s.name, s.slug, s.description, s.created_at,
  (SELECT v.id FROM eval_scorer_versions v WHERE v.scorer_id = s.id ORDER BY v.number DESC LIMIT 1) AS latest_version_id,
  (SELECT COUNT(*) FROM eval_scorer_versions v WHERE v.scorer_id = s.id) AS version_count`;

function toScorer(row: ScorerRow): Scorer {
  const scorer: Scorer = {
    id: row.id,
    name: row.name,
    slug: row.slug,
    latestVersionId: row.latest_version_id,
    versionCount: Number(row.version_count),
    createdAt: row.created_at,
  };
  return withOptional(scorer, 'description', row.description ?? undefined);
}

function toVersion(row: VersionRow): ScorerVersion {
  return {
    id: row.id,
    scorerId: row.scorer_id,
    number: Number(row.number),
    definition: JSON.parse(row.definition) as StoredDefinition,
    createdAt: row.created_at,
  };
}

/** The definition as stored: built-in metrics filled in, `caseSensitive` defaulted, digests prefixed. */
export function normalizeDefinition(definition: ScorerDefinitionInput): StoredDefinition {
  switch (definition.kind) {
    case 'builtin': {
      const metrics: MetricDefinition[] = [{ name: definition.builtin, type: 'boolean' }];
      if (definition.builtin === 'includes') {
        return {
          ...definition,
          caseSensitive: definition.caseSensitive ?? true,
          metrics,
        } as StoredDefinition;
      }
      return { ...definition, metrics } as StoredDefinition;
    }
    case 'local_code':
      return {
        ...definition,
        sourceDigest: definition.sourceDigest.startsWith('sha256:')
          ? definition.sourceDigest
          : `sha256:${definition.sourceDigest}`,
      };
    default:
      return definition;
  }
}

/** Scorers and scorer versions. */
export class ScorerStore {
  readonly #context: EvalContext;
  readonly #sql: Record<string, StatementSync>;

  constructor(context: EvalContext) {
    this.#context = context;
    const prepare = (sql: string) => context.db.prepare(sql);
    this.#sql = {
      insertScorer: prepare(
        'INSERT INTO eval_scorers (id, name, slug, description, created_at) VALUES (?, ?, ?, ?, ?)',
      ),
      scorerBySlug: prepare('SELECT id FROM eval_scorers WHERE slug = ?'),
      scorer: prepare(`SELECT ${SCORER_COLUMNS} FROM eval_scorers s WHERE s.id = ?`),
      scorers: prepare(`SELECT ${SCORER_COLUMNS} FROM eval_scorers s WHERE s.seq > ? ORDER BY s.seq LIMIT ?`),
      insertVersion: prepare(
        `INSERT INTO eval_scorer_versions (id, scorer_id, number, definition, created_at)
         VALUES (?, ?, (SELECT COALESCE(MAX(number), 0) + 1 FROM eval_scorer_versions WHERE scorer_id = ?), ?, ?)`,
      ),
      version: prepare('SELECT * FROM eval_scorer_versions WHERE id = ?'),
    };
  }

  /** Creates a scorer. @throws 409 `conflict` when the slug is taken. */
  createScorer(identity: Identity): Scorer {
    if (this.#sql.scorerBySlug!.get(identity.slug) !== undefined) {
      throw new ApiError(409, 'conflict', 'A scorer with this slug exists already; choose another slug.');
    }
    const id = randomUUID();
    this.#sql.insertScorer!.run(
      id,
      identity.name,
      identity.slug,
      identity.description ?? null,
      this.#context.now(),
    );
    return this.getScorer(id);
  }

  /** A scorer. @throws 404 when unknown. */
  getScorer(id: string): Scorer {
    const row = this.#sql.scorer!.get(id) as ScorerRow | undefined;
    if (row === undefined) throw new ApiError(404, 'not_found', 'No scorer has this ID.');
    return toScorer(row);
  }

  /** A page of scorers, oldest first. */
  listScorers(page: PageRequest): Page<Scorer> {
    return toPage(
      this.#sql.scorers!.all(page.after, page.limit + 1) as unknown as ScorerRow[],
      page,
      toScorer,
    );
  }

  /** Publishes the next, immutable version of a scorer. */
  publishVersion(scorerId: string, definition: ScorerDefinitionInput): ScorerVersion {
    this.getScorer(scorerId);
    const id = randomUUID();
    const stored = normalizeDefinition(definition);
    this.#sql.insertVersion!.run(id, scorerId, scorerId, JSON.stringify(stored), this.#context.now());
    return this.getVersion(id);
  }

  /** A scorer version. @throws 404 when unknown; `name` names the ID in the message. */
  getVersion(id: string, name = 'versionId'): ScorerVersion {
    const version = this.findVersion(id);
    if (version === undefined)
      throw new ApiError(404, 'not_found', `No scorer version has this ID (${name}).`);
    return version;
  }

  /** A scorer version, or `undefined`. */
  findVersion(id: string): ScorerVersion | undefined {
    const row = this.#sql.version!.get(id) as VersionRow | undefined;
    return row === undefined ? undefined : toVersion(row);
  }
}
