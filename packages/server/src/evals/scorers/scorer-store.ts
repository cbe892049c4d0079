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
  /**
   * True for a version whose hosted-judge configuration is sealed (a scenario's `llm_judge`
   * check): the API shows its kind and metrics, never its `config` (the rubric).
   */
  sealed?: true;
}

interface VersionRow {
  seq: number;
  id: string;
  scorer_id: string;
  number: number;
  definition: string;
  created_at: string;
  sealed: number;
}

function toVersion(row: VersionRow): ScorerVersion {
  const version: ScorerVersion = {
    id: row.id,
    scorerId: row.scorer_id,
    number: Number(row.number),
    definition: JSON.parse(row.definition) as StoredDefinition,
    createdAt: row.created_at,
  };
  if (Number(row.sealed) === 1) version.sealed = true;
  return version;
}

/** A version as the API shows it: a sealed one without its `config`. */
export function publicScorerVersion(version: ScorerVersion): ScorerVersion {
  if (version.sealed !== true) return version;
  const { config: _sealed, ...definition } = version.definition as StoredDefinition & { config?: unknown };
  return { ...version, definition: definition as StoredDefinition };
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
        `INSERT INTO eval_scorer_versions (id, scorer_id, number, definition, created_at, sealed)
         VALUES (?, ?, (SELECT COALESCE(MAX(number), 0) + 1 FROM eval_scorer_versions WHERE scorer_id = ?), ?, ?, ?)`,
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

  /**
   * Publishes the next, immutable version of a scorer. `sealed` (a scenario's hosted judge) keeps
   * its configuration out of every answer (see {@link publicScorerVersion}).
   */
  publishVersion(
    scorerId: string,
    definition: ScorerDefinitionInput,
    options: { sealed?: boolean } = {},
  ): ScorerVersion {
    this.getScorer(scorerId);
    const id = randomUUID();
    const stored = normalizeDefinition(definition);
    this.#sql.insertVersion!.run(
      id,
      scorerId,
      scorerId,
      JSON.stringify(stored),
      this.#context.now(),
      options.sealed === true ? 1 : 0,
    );
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
