/**
 * Test support: the direct-case command output document read from `svc eval --json`'s stdout and
 * checked with ajv against its JSON Schema (`commands/eval/eval-document.schema.json`, published
 * as `@svc-run/cli/eval-document.schema.json`).
 * @module
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { EvalDocument } from '../commands/eval/eval-document.js';
import schema from '../commands/eval/eval-document.schema.json' with { type: 'json' };

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats.default(ajv);
const validateDocument = ajv.compile<EvalDocument>(schema);

/** Parses `stdout` as the document; throws naming every mismatch when it does not match the schema. */
export function documentOf(stdout: string): EvalDocument {
  const document = JSON.parse(stdout) as unknown;
  if (!validateDocument(document)) {
    throw new Error(`the document does not match its schema: ${ajv.errorsText(validateDocument.errors)}`);
  }
  return document;
}
