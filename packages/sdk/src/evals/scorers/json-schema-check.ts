/**
 * The JSON Schema built-in: validation of the output against a compiled schema, off the main
 * thread and bounded in time.
 * @module
 */

import { errorScore, SCORE_ERROR_TYPES } from './error-score.js';
import { type OutputReading, validateInWorker, type WorkerSchema } from './schema-worker.js';
import type { Score, ScoredScore } from './score.js';
import { BUILTIN_METRICS } from './scorer-definitions.js';

const [METRIC] = BUILTIN_METRICS.json_schema;

const PASSED: { readonly [reading in OutputReading]: string } = {
  value: 'The output matches the JSON Schema.',
  json_text: 'The output, read as JSON text, matches the JSON Schema.',
  string: 'The output string matches the JSON Schema.',
};

const FAILED: { readonly [reading in OutputReading]: (count: string) => string } = {
  value: (count) => `The output does not match the JSON Schema (${count}).`,
  json_text: (count) =>
    `The output, read as JSON text, does not match the JSON Schema (${count}), nor does the string itself.`,
  string: (count) =>
    `The output is text that is not JSON, and as a string it does not match the JSON Schema (${count}).`,
};

/**
 * Scores whether the output validates against `schema`.
 *
 * A string output passes when either reading of it validates: as JSON text (a model's structured
 * output is text), when it parses, or as the string itself (for schemas of strings). Any other
 * output is validated as the JSON value it is. A failed check is `scored` with `passed: false`;
 * its `evidence` is `{ reading, errorCount, errors }`: the reading reported (`value`, `json_text`
 * or `string`; the JSON reading when the text parses), the number of errors and the first 20
 * (`{ instancePath, schemaPath, keyword, message }` as ajv reports them).
 *
 * Validation runs in a worker thread: when it takes longer than `timeoutMillis`, the worker is
 * ended and the Score is an `error` of type `SchemaTimeoutError`.
 */
export async function scoreJsonSchema(
  output: unknown,
  schema: WorkerSchema,
  timeoutMillis: number,
): Promise<Score> {
  const result = await validateInWorker(schema, output, timeoutMillis);
  switch (result.outcome) {
    case 'valid':
      return scored(true, PASSED[result.reading]);
    case 'invalid': {
      const { reading, errorCount, errors } = result;
      return {
        ...scored(false, FAILED[reading](errorCount === 1 ? '1 error' : `${errorCount} errors`)),
        evidence: { reading, errorCount, errors: errors.map((error) => ({ ...error })) },
      };
    }
    case 'timeout':
      return errorScore(
        SCORE_ERROR_TYPES.schemaTimeout,
        `JSON Schema validation did not finish within ${timeoutMillis} ms (schemaTimeoutMillis).`,
      );
    case 'failed':
      return errorScore(
        SCORE_ERROR_TYPES.schemaValidator,
        `JSON Schema validation failed in its worker (${result.errorName}).`,
      );
  }
}

function scored(passed: boolean, explanation: string): ScoredScore {
  return { status: 'scored', metrics: [{ name: METRIC.name, value: passed, passed }], explanation };
}
