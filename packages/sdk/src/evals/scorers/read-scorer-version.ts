/**
 * Reads the scorer version given to `scoreLocally`: a scorer version record (anything with a
 * `definition`, as `getScorerVersion` returns it) or a definition itself, and checks that its
 * definition is one the SDK can score in this process.
 * @module
 */

import { describeValue } from '../../diagnostics/describe-value.js';
import { findNonJson } from './json-value.js';
import {
  BUILTIN_METRICS,
  type BuiltinScorerDefinition,
  type BuiltinScorerName,
  type JsonSchema,
  type LocalCodeScorerDefinition,
  type ScorerDefinition,
} from './scorer-definitions.js';
import { validateMetricDefinitions } from './validate-metric-definitions.js';

/** A scorer version as `scoreLocally` takes it: a record holding a `definition`, or a definition. */
export type ScorerVersionLike = ScorerDefinition | { readonly definition: ScorerDefinition };

/** A definition `scoreLocally` can run: a built-in, or TypeScript local code. */
export type LocallyScorableDefinition = BuiltinScorerDefinition | LocalCodeScorerDefinition;

/** Longest local-scorer entrypoint, in UTF-16 code units. */
export const MAX_ENTRYPOINT_LENGTH = 256;

const DIGEST = /^(?:sha256:)?([0-9a-f]{64})$/u;
const BUILTIN_NAMES = Object.keys(BUILTIN_METRICS) as BuiltinScorerName[];

/**
 * The definition of `version`, checked and copied with the known fields only, and how messages
 * name it (`version` for a definition, `version.definition` for a record holding one).
 *
 * @throws TypeError naming the field and rule when the definition is malformed, or when its kind
 *   cannot be scored in this process (`manual`, `llm_judge`, or local code in Python).
 */
export function readScorerVersion(version: unknown): { definition: LocallyScorableDefinition; path: string } {
  if (typeof version !== 'object' || version === null || Array.isArray(version)) {
    throw new TypeError(
      `version must be a scorer version (an object with a definition) or a scorer definition; got ${describeValue(version)}`,
    );
  }
  const isDefinition = 'kind' in version;
  const path = isDefinition ? 'version' : 'version.definition';
  const definition = isDefinition ? version : (version as { definition?: unknown }).definition;
  if (typeof definition !== 'object' || definition === null || Array.isArray(definition)) {
    throw new TypeError(`${path} must be a scorer definition object; got ${describeValue(definition)}`);
  }
  const given = definition as Record<string, unknown>;
  switch (given.kind) {
    case 'builtin':
      return { definition: readBuiltin(given, path), path };
    case 'local_code':
      return { definition: readLocalCode(given, path), path };
    case 'manual':
      throw new TypeError(
        `${path}.kind "manual" cannot be scored locally: people enter its scores in the service`,
      );
    case 'llm_judge':
      throw new TypeError(
        `${path}.kind "llm_judge" cannot be scored locally: the service's hosted judge scores it`,
      );
    default:
      throw new TypeError(
        `${path}.kind must be one of builtin, local_code, manual, llm_judge; got ${describeValue(given.kind)}`,
      );
  }
}

function readBuiltin(given: Record<string, unknown>, path: string): BuiltinScorerDefinition {
  const builtin = given.builtin;
  if (!BUILTIN_NAMES.includes(builtin as BuiltinScorerName)) {
    throw new TypeError(
      `${path}.builtin must be one of ${BUILTIN_NAMES.join(', ')}; got ${describeValue(builtin)}`,
    );
  }
  const name = builtin as BuiltinScorerName;
  const metrics = validateMetricDefinitions(given.metrics, `${path}.metrics`);
  const [fixed] = BUILTIN_METRICS[name];
  if (metrics.length !== 1 || metrics[0]?.name !== fixed.name || metrics[0].type !== fixed.type) {
    throw new TypeError(
      `${path}.metrics must be the fixed metrics of the ${name} built-in, [{ name: "${fixed.name}", type: "boolean" }]`,
    );
  }
  switch (name) {
    case 'exact_match':
      return { kind: 'builtin', builtin: name, metrics: [{ ...fixed }] };
    case 'includes': {
      const caseSensitive = given.caseSensitive ?? true;
      if (typeof caseSensitive !== 'boolean') {
        throw new TypeError(
          `${path}.caseSensitive must be a boolean when set; got ${describeValue(caseSensitive)}`,
        );
      }
      return { kind: 'builtin', builtin: name, caseSensitive, metrics: [{ ...fixed }] };
    }
    case 'json_schema':
      return {
        kind: 'builtin',
        builtin: name,
        schema: readSchema(given.schema, `${path}.schema`),
        metrics: [{ ...fixed }],
      };
  }
}

/**
 * Checks that `schema` is JSON and a JSON Schema's top-level type (an object or a boolean).
 * Whether it is a valid JSON Schema is checked by compiling it.
 */
export function readSchema(schema: unknown, path: string): JsonSchema {
  if (
    typeof schema !== 'boolean' &&
    (typeof schema !== 'object' || schema === null || Array.isArray(schema))
  ) {
    throw new TypeError(
      `${path} must be a JSON Schema (an object or a boolean); got ${describeValue(schema)}`,
    );
  }
  const nonJson = findNonJson(schema);
  if (nonJson !== undefined) throw new TypeError(`${path} must be a JSON value; it holds ${nonJson}`);
  return schema as JsonSchema;
}

function readLocalCode(given: Record<string, unknown>, path: string): LocalCodeScorerDefinition {
  if (given.language === 'python') {
    throw new TypeError(`${path}.language "python" cannot be scored locally by the TypeScript SDK`);
  }
  if (given.language !== 'typescript') {
    throw new TypeError(
      `${path}.language must be "typescript" or "python"; got ${describeValue(given.language)}`,
    );
  }
  const digest = typeof given.sourceDigest === 'string' ? DIGEST.exec(given.sourceDigest) : null;
  if (digest === null) {
    throw new TypeError(
      `${path}.sourceDigest must be "sha256:" and 64 lowercase hex digits; got ${describeValue(given.sourceDigest)}`,
    );
  }
  return {
    kind: 'local_code',
    language: 'typescript',
    entrypoint: validateEntrypoint(given.entrypoint, `${path}.entrypoint`),
    // A bare hex digest is read as the same declaration.
    sourceDigest: `sha256:${digest[1]}`,
    metrics: validateMetricDefinitions(given.metrics, `${path}.metrics`),
  };
}

/**
 * Checks a local scorer's entrypoint: a string of 1 to {@link MAX_ENTRYPOINT_LENGTH} characters
 * with non-whitespace content.
 */
export function validateEntrypoint(value: unknown, path: string): string {
  if (typeof value === 'string' && /\S/u.test(value) && value.length <= MAX_ENTRYPOINT_LENGTH) return value;
  throw new TypeError(
    `${path} must be a string of 1 to ${MAX_ENTRYPOINT_LENGTH} characters with non-whitespace content; got ${describeValue(value)}`,
  );
}
