/**
 * Validation of a tool call's arguments against the tool's JSON Schema (draft 2020-12) with ajv,
 * set up as the scorers' JSON Schema check is (unknown keywords ignored, `format` an annotation),
 * every error collected. Compiled validators are kept per schema (by its JSON text), for the
 * latest {@link MAX_VALIDATORS} schemas.
 * @module
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

/** Compiled validators kept in memory, most recently used last. */
export const MAX_VALIDATORS = 256;

/** Errors listed in one error result. */
const MAX_LISTED = 10;

const compiled = new Map<string, ValidateFunction>();

function validatorOf(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  const cached = compiled.get(key);
  if (cached !== undefined) {
    compiled.delete(key);
    compiled.set(key, cached);
    return cached;
  }
  // A fresh instance per schema: schemas with the same `$id` must not clash.
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  const validate = ajv.compile(schema);
  compiled.set(key, validate);
  if (compiled.size > MAX_VALIDATORS) compiled.delete(compiled.keys().next().value as string);
  return validate;
}

/**
 * Why `args` do not fit `schema` (`<instance path>: <rule>` per error, at most ten), or
 * `undefined` when they do. ajv's messages name the rule and the location, never the value.
 */
export function argumentProblems(schema: Record<string, unknown>, args: unknown): string[] | undefined {
  const validate = validatorOf(schema);
  if (validate(args)) return undefined;
  const errors = validate.errors ?? [];
  const listed = errors
    .slice(0, MAX_LISTED)
    .map((error) => `${error.instancePath || '(arguments)'}: ${error.message ?? 'is invalid'}`);
  if (errors.length > MAX_LISTED) listed.push(`… and ${errors.length - MAX_LISTED} more`);
  return listed;
}
