/**
 * Options of `scoreLocally`, validated in one place.
 * @module
 */

import { describeValue } from '../../diagnostics/describe-value.js';
import { validateIntegerOption } from '../../options/integer-option.js';
import type { LocalScorer } from './define-local-scorer.js';
import { requireOptionsObject } from './require-options-object.js';

/** Default bound of one JSON Schema validation, in milliseconds. */
export const DEFAULT_SCHEMA_TIMEOUT_MILLIS = 2000;
/** Smallest `schemaTimeoutMillis`. */
export const MIN_SCHEMA_TIMEOUT_MILLIS = 100;
/** Largest `schemaTimeoutMillis`. */
export const MAX_SCHEMA_TIMEOUT_MILLIS = 60_000;

/** Options of `scoreLocally`. */
export interface ScoreLocallyOptions {
  /** Local scorers made by `defineLocalScorer`; a `local_code` version runs the one of its digest. */
  scorers?: readonly LocalScorer[];
  /** Bound of a JSON Schema validation in milliseconds: integer 100 to 60000, default 2000. */
  schemaTimeoutMillis?: number;
}

/** {@link ScoreLocallyOptions} with defaults applied. */
export interface ResolvedScoreLocallyOptions {
  scorers: readonly LocalScorer[];
  schemaTimeoutMillis: number;
}

/**
 * Checks the options of `scoreLocally` and applies defaults. Unknown keys are ignored.
 *
 * @throws TypeError naming the option, the bad value and the rule.
 */
export function validateScoreLocallyOptions(options: unknown): ResolvedScoreLocallyOptions {
  if (options === undefined) return { scorers: [], schemaTimeoutMillis: DEFAULT_SCHEMA_TIMEOUT_MILLIS };
  const { scorers, schemaTimeoutMillis } = requireOptionsObject(
    options,
    '{ scorers?, schemaTimeoutMillis? }',
  );
  return {
    scorers: validateScorers(scorers),
    schemaTimeoutMillis: validateSchemaTimeoutMillis(schemaTimeoutMillis),
  };
}

/**
 * Checks `schemaTimeoutMillis`: an integer from 100 to 60000, default 2000.
 *
 * @throws TypeError naming the option, the bad value and the rule.
 */
export function validateSchemaTimeoutMillis(value: unknown): number {
  return validateIntegerOption(
    'schemaTimeoutMillis',
    value,
    {
      min: MIN_SCHEMA_TIMEOUT_MILLIS,
      max: MAX_SCHEMA_TIMEOUT_MILLIS,
      fallback: DEFAULT_SCHEMA_TIMEOUT_MILLIS,
    },
    describeValue,
  );
}

/**
 * Checks `scorers`: an array of local scorers made by `defineLocalScorer` (objects with a
 * TypeScript `local_code` definition and a `score` function), default none.
 *
 * @throws TypeError naming the option, the bad entry and the rule.
 */
export function validateScorers(value: unknown): readonly LocalScorer[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new TypeError(
      `scorers must be an array of scorers made by defineLocalScorer; got ${describeValue(value)}`,
    );
  }
  for (const [index, scorer] of value.entries()) {
    const definition = (scorer as Partial<LocalScorer> | null)?.definition;
    if (
      typeof (scorer as Partial<LocalScorer> | null)?.score !== 'function' ||
      definition?.kind !== 'local_code' ||
      definition.language !== 'typescript' ||
      typeof definition.sourceDigest !== 'string' ||
      typeof definition.entrypoint !== 'string' ||
      !Array.isArray(definition.metrics)
    ) {
      throw new TypeError(
        `scorers[${index}] must be a scorer made by defineLocalScorer ({ definition, score }); got ${describeValue(scorer)}`,
      );
    }
  }
  return value as LocalScorer[];
}
