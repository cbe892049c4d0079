/**
 * Compiles JSON Schemas (draft 2020-12) with ajv, once per distinct schema.
 *
 * Compiling checks the schema against the draft 2020-12 meta-schema and resolves its references;
 * the result is ajv's standalone validation code, which the schema worker evaluates. ajv is set up
 * as the draft reads: unknown keywords are ignored (`strict: false`) and `format` is an annotation,
 * not an assertion (`validateFormats: false`); every error is collected (`allErrors: true`).
 * Compiled schemas are kept for the latest {@link MAX_COMPILED_SCHEMAS} distinct schemas (by their
 * JSON text).
 * @module
 */

import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import type { WorkerSchema } from './schema-worker.js';
import type { JsonSchema } from './scorer-definitions.js';

/** Compiled schemas kept in memory, most recently used last. */
export const MAX_COMPILED_SCHEMAS = 64;

// A CommonJS module: its default import is `module.exports`, the function, whose `default` is
// itself; under TypeScript's NodeNext typing the function is `.default` only.
const standaloneCode = standaloneModule.default;

const compiled = new Map<string, WorkerSchema>();
let nextSchemaId = 1;

/**
 * The compiled form of `schema`, from the cache when the same schema (same JSON text) was compiled
 * before.
 *
 * @param schema - A JSON value that is an object or a boolean.
 * @param path - How the schema is named in messages.
 * @throws TypeError when `schema` is not a valid draft 2020-12 JSON Schema, or refers to a schema
 *   it does not hold (remote references are not fetched).
 */
export function compileSchema(schema: JsonSchema, path: string): WorkerSchema {
  const key = JSON.stringify(schema);
  const cached = compiled.get(key);
  if (cached !== undefined) {
    compiled.delete(key);
    compiled.set(key, cached);
    return cached;
  }
  const ajv = new Ajv2020({
    strict: false,
    validateFormats: false,
    allErrors: true,
    code: { source: true },
  });
  let source: string;
  try {
    source = standaloneCode(ajv, ajv.compile(schema));
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : 'it does not compile';
    throw new TypeError(`${path} must be a valid JSON Schema (draft 2020-12): ${reason}`);
  }
  const result: WorkerSchema = Object.freeze({ id: nextSchemaId++, source });
  compiled.set(key, result);
  if (compiled.size > MAX_COMPILED_SCHEMAS) compiled.delete(compiled.keys().next().value as string);
  return result;
}
