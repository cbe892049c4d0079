/**
 * The built-in scorers' definitions: `builtins.exactMatch()`, `builtins.includes(caseSensitive)`
 * and `builtins.jsonSchema(schema)`.
 * @module
 */

import { describeValue } from '../../diagnostics/describe-value.js';
import { compileSchema } from './compile-schema.js';
import { readSchema } from './read-scorer-version.js';
import {
  BUILTIN_METRICS,
  type ExactMatchScorerDefinition,
  type IncludesScorerDefinition,
  type JsonSchema,
  type JsonSchemaScorerDefinition,
} from './scorer-definitions.js';

/**
 * Definitions of the built-in scorers, to publish with `publishScorerVersion` and to score with
 * `scoreLocally`. Each call returns a new plain JSON object.
 *
 * @example
 * ```ts
 * import { builtins } from '@svc-run/sdk/evals';
 *
 * await client.publishScorerVersion(exactId, builtins.exactMatch());
 * await client.publishScorerVersion(mentionsId, builtins.includes(false));
 * await client.publishScorerVersion(shapeId, builtins.jsonSchema({
 *   type: 'object',
 *   required: ['answer'],
 *   properties: { answer: { type: 'string' } },
 * }));
 * ```
 */
export const builtins = Object.freeze({
  /**
   * Exact match: `{ kind: 'builtin', builtin: 'exact_match', metrics: [{ name: 'exact_match', type: 'boolean' }] }`.
   * Passes when the output equals the expected value as JSON (see the README's "Local scorers").
   */
  exactMatch(): ExactMatchScorerDefinition {
    return { kind: 'builtin', builtin: 'exact_match', metrics: [{ ...BUILTIN_METRICS.exact_match[0] }] };
  },

  /**
   * String inclusion: `{ kind: 'builtin', builtin: 'includes', caseSensitive, metrics: [{ name: 'includes', type: 'boolean' }] }`.
   * Passes when the output text includes the expected text.
   *
   * @param caseSensitive - Whether case counts; default true.
   * @throws TypeError when `caseSensitive` is not a boolean.
   */
  includes(caseSensitive = true): IncludesScorerDefinition {
    if (typeof caseSensitive !== 'boolean') {
      throw new TypeError(
        `caseSensitive must be a boolean (default true); got ${describeValue(caseSensitive)}`,
      );
    }
    return {
      kind: 'builtin',
      builtin: 'includes',
      caseSensitive,
      metrics: [{ ...BUILTIN_METRICS.includes[0] }],
    };
  },

  /**
   * JSON Schema: `{ kind: 'builtin', builtin: 'json_schema', schema, metrics: [{ name: 'json_schema', type: 'boolean' }] }`.
   * Passes when the output validates against `schema` (draft 2020-12). The schema is compiled here,
   * once (later scoring of the same schema reuses it), and copied into the definition.
   *
   * @param schema - A draft 2020-12 JSON Schema: a JSON object or a boolean.
   * @throws TypeError when `schema` is not JSON, not an object or boolean, or not a valid draft
   *   2020-12 schema (including references to schemas it does not hold).
   */
  jsonSchema(schema: JsonSchema): JsonSchemaScorerDefinition {
    const checked = readSchema(schema, 'schema');
    compileSchema(checked, 'schema');
    return {
      kind: 'builtin',
      builtin: 'json_schema',
      schema: JSON.parse(JSON.stringify(checked)) as JsonSchema,
      metrics: [{ ...BUILTIN_METRICS.json_schema[0] }],
    };
  },
});
