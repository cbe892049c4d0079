/**
 * Checks a JSON Schema given to the `json_schema` built-in with ajv's draft 2020-12 build, set up
 * as the SDK's validator is (`packages/sdk/src/evals/scorers/compile-schema.ts`): unknown keywords
 * are ignored (`strict: false`) and `format` is an annotation. A schema is refused when it fails
 * the draft 2020-12 meta-schema, names another draft in `$schema`, or does not compile (a
 * `pattern` that is not a regular expression, a `$ref` to a schema it does not hold — remote
 * references are never fetched). Validation itself runs in the SDK.
 * @module
 */
import { Ajv2020 } from 'ajv/dist/2020.js';

/** The `$schema` URI of draft 2020-12 (with or without the trailing `#`). */
const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

/** The first problem of `schema` as `<JSON pointer or keyword>: <rule>`, or `undefined` when usable. */
export function jsonSchemaProblem(schema: unknown): string | undefined {
  if (typeof schema === 'boolean') return undefined;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return '/: a schema is an object or a boolean';
  }
  const declared = (schema as { $schema?: unknown }).$schema;
  if (declared !== undefined && (typeof declared !== 'string' || !DRAFT_2020_12.test(declared))) {
    return '/$schema: must be https://json-schema.org/draft/2020-12/schema (draft 2020-12) when set';
  }
  // A fresh instance per check: schemas with the same `$id` must not clash.
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
  if (!ajv.validateSchema(schema)) {
    const [first] = ajv.errors ?? [];
    return `${first?.instancePath || '/'}: ${first?.message ?? 'not a draft 2020-12 schema'}`;
  }
  try {
    ajv.compile(schema);
    return undefined;
  } catch (error) {
    // ajv's messages name the keyword and the schema path, never the validated data.
    const reason = error instanceof Error ? error.message.split('\n')[0] : 'it does not compile';
    return `/: ${reason}`;
  }
}
