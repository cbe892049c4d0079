/**
 * Scorers and scorer versions, as the evaluation client returns them: the service's wire shapes
 * (`wire-types.generated.ts`, from the server's schemas). Definitions are published with the shapes
 * of `scorers/scorer-definitions.ts`.
 * @module
 */
import type { ScorerDefinition } from '../scorers/scorer-definitions.js';
import type * as Wire from './wire-types.generated.js';

/** A scorer: a named series of immutable versions. */
export type Scorer = Wire.Scorer;

/**
 * An immutable scorer version. The service stores the definition with defaults applied: built-in
 * metrics filled in, `caseSensitive: true` for `includes` when omitted, and a local-code
 * `sourceDigest` as `sha256:<64 hex>`. The wire shape states the definition loosely (any stored
 * definition); the SDK types it as the definitions it publishes and scores.
 */
export type ScorerVersion = Omit<Wire.ScorerVersion, 'definition'> & { definition: ScorerDefinition };
