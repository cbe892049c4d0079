/**
 * The scorer methods of the evaluation client.
 * @module
 */
import type { ScorerDefinition } from '../scorers/scorer-definitions.js';
import type { Identity, Page, PageOptions, RequestOptions } from '../types/common-types.js';
import type { Scorer, ScorerVersion } from '../types/scorer-types.js';
import { idSegment, optionalIdempotencyKey, pageQuery, requireObject } from './argument-checks.js';
import type { EvalTransport } from './eval-transport.js';

/** Scorers and their immutable versions. */
export interface ScorerMethods {
  /** Creates a scorer. A taken slug is refused (409 `conflict`). */
  createScorer(identity: Identity, options?: RequestOptions): Promise<Scorer>;
  /** Reads a scorer. */
  getScorer(id: string): Promise<Scorer>;
  /** A page of scorers, oldest first. */
  listScorers(page?: PageOptions): Promise<Page<Scorer>>;
  /** Publishes the next, immutable version of a scorer; an invalid definition is refused (400). */
  publishScorerVersion(
    scorerId: string,
    definition: ScorerDefinition,
    options?: RequestOptions,
  ): Promise<ScorerVersion>;
  /** Reads a scorer version. */
  getScorerVersion(versionId: string): Promise<ScorerVersion>;
}

const BASE = '/api/v1/evals';

/** The scorer methods on `send`. */
export function scorerMethods(send: EvalTransport): ScorerMethods {
  return {
    createScorer: async (identity, options) =>
      send({
        operation: 'createScorer',
        method: 'POST',
        path: `${BASE}/scorers`,
        body: requireObject('identity', identity),
        idempotencyKey: optionalIdempotencyKey(options),
      }),
    getScorer: async (id) =>
      send({ operation: 'getScorer', method: 'GET', path: `${BASE}/scorers/${idSegment('id', id)}` }),
    listScorers: async (page) =>
      send({ operation: 'listScorers', method: 'GET', path: `${BASE}/scorers`, query: pageQuery(page) }),
    publishScorerVersion: async (scorerId, definition, options) =>
      send({
        operation: 'publishScorerVersion',
        method: 'POST',
        path: `${BASE}/scorers/${idSegment('scorerId', scorerId)}/versions`,
        body: requireObject('definition', definition),
        idempotencyKey: optionalIdempotencyKey(options),
      }),
    getScorerVersion: async (versionId) =>
      send({
        operation: 'getScorerVersion',
        method: 'GET',
        path: `${BASE}/scorer-versions/${idSegment('versionId', versionId)}`,
      }),
  };
}
