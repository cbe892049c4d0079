/**
 * Test support: the scenario command output document read from `svc eval --scenario … --json`'s
 * stdout and checked with ajv against its JSON Schema
 * (`commands/eval/scenario-run/scenario-eval-document.schema.json`, published as
 * `@svc-run/cli/scenario-eval-document.schema.json`; its baseline refers to the direct-case
 * document's schema).
 * @module
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import evalSchema from '../commands/eval/eval-document.schema.json' with { type: 'json' };
import type { ScenarioEvalDocument } from '../commands/eval/scenario-run/scenario-document.js';
import schema from '../commands/eval/scenario-run/scenario-eval-document.schema.json' with { type: 'json' };

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats.default(ajv);
ajv.addSchema(evalSchema);
const validateDocument = ajv.compile<ScenarioEvalDocument>(schema);

/** Parses `stdout` as the document; throws naming every mismatch when it does not match the schema. */
export function scenarioDocumentOf(stdout: string): ScenarioEvalDocument {
  const document = JSON.parse(stdout) as unknown;
  if (!validateDocument(document)) {
    throw new Error(`the document does not match its schema: ${ajv.errorsText(validateDocument.errors)}`);
  }
  return document;
}
