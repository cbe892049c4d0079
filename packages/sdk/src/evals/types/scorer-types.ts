/**
 * Scorers and scorer versions, as the evaluation client returns them. Definitions have the shapes
 * of `scorers/scorer-definitions.ts`.
 * @module
 */
import type { ScorerDefinition } from '../scorers/scorer-definitions.js';

/** A scorer: a named series of immutable versions. */
export interface Scorer {
  id: string;
  name: string;
  slug: string;
  description?: string;
  latestVersionId: string | null;
  versionCount: number;
  createdAt: string;
}

/**
 * An immutable scorer version. The service stores the definition with defaults applied: built-in
 * metrics filled in, `caseSensitive: true` for `includes` when omitted, and a local-code
 * `sourceDigest` as `sha256:<64 hex>`.
 */
export interface ScorerVersion {
  id: string;
  scorerId: string;
  /** 1 for the first version of the scorer, then 2, 3, … */
  number: number;
  definition: ScorerDefinition;
  createdAt: string;
}
