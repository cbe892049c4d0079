/**
 * Test support: the direct-case command output document read from `svc eval --json`'s stdout and
 * checked against its published JSON Schema (`eval-document.schema.json`) with ajv.
 * @module
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import schema from '../../eval-document.schema.json' with { type: 'json' };
import type { EvalDocument } from '../commands/eval/eval-document.js';

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
