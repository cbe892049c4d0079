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
import type { Page, PageRequest } from '../core/paging.js';
import { VersionedIdentities } from '../core/versioned-identities.js';
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

interface VersionRow {
  seq: number;
  id: string;
  scorer_id: string;
  number: number;
  definition: string;
  created_at: string;
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
  readonly #scorers: VersionedIdentities;
  readonly #sql: Record<string, StatementSync>;

  constructor(context: EvalContext) {
    this.#context = context;
    this.#scorers = new VersionedIdentities(context, {
      table: 'eval_scorers',
      versions: 'eval_scorer_versions',
      owner: 'scorer_id',
      noun: 'scorer',
    });
    const prepare = (sql: string) => context.db.prepare(sql);
    this.#sql = {
      insertVersion: prepare(
        `INSERT INTO eval_scorer_versions (id, scorer_id, number, definition, created_at)
         VALUES (?, ?, (SELECT COALESCE(MAX(number), 0) + 1 FROM eval_scorer_versions WHERE scorer_id = ?), ?, ?)`,
      ),
      version: prepare('SELECT * FROM eval_scorer_versions WHERE id = ?'),
    };
  }

  /** Creates a scorer. @throws 409 `conflict` when the slug is taken. */
  createScorer(identity: Identity): Scorer {
    return this.#scorers.create(identity);
  }

  /** A scorer. @throws 404 when unknown. */
  getScorer(id: string): Scorer {
    return this.#scorers.get(id);
  }

  /** A page of scorers, oldest first. */
  listScorers(page: PageRequest): Page<Scorer> {
    return this.#scorers.list(page);
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
