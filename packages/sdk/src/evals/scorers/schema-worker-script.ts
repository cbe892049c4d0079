/**
 * The code of the JSON Schema validation worker, run with `new Worker(code, { eval: true })` so that
 * it needs no file of its own in the build.
 *
 * The worker receives `{ job, schemaId, source, text }`: `source` is the standalone validation code
 * ajv generated for the schema (CommonJS; it requires ajv's runtime helpers, resolved from the
 * SDK's location given as `workerData.requireFrom`), evaluated once per `schemaId` and kept for the
 * latest {@link MAX_WORKER_VALIDATORS} schemas. `text` is the output: its JSON text when
 * `isString` is false; the string itself when true, validated first as JSON text (when it parses),
 * then as a string. It answers `{ job, outcome, reading }` with outcome `valid` or `invalid` (with
 * `errorCount` and the first `workerData.maxErrors` errors, those of the JSON reading when the
 * text parses) and `reading` the reading reported (`value`, `json_text` or `string`); or
 * `{ job, outcome: 'failed', errorName }` (e.g. `RangeError` for a stack overflow). It posts
 * `{ ready: true }` once it listens.
 * @module
 */

/** Validators a worker keeps, most recently used last. */
export const MAX_WORKER_VALIDATORS = 64;

/** The worker's CommonJS code. */
export const SCHEMA_WORKER_SCRIPT = `'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
const requireFromSdk = createRequire(workerData.requireFrom);
const validators = new Map();

function validatorOf(schemaId, source) {
  let validate = validators.get(schemaId);
  if (validate !== undefined) {
    validators.delete(schemaId);
  } else {
    const module = { exports: {} };
    new Function('module', 'exports', 'require', source)(module, module.exports, requireFromSdk);
    validate = module.exports;
  }
  validators.set(schemaId, validate);
  if (validators.size > ${MAX_WORKER_VALIDATORS}) validators.delete(validators.keys().next().value);
  return validate;
}

parentPort.on('message', ({ job, schemaId, source, text, isString }) => {
  try {
    const validate = validatorOf(schemaId, source);
    let data;
    let parsed = true;
    try {
      data = JSON.parse(text);
    } catch {
      parsed = false; // output text that is not JSON is validated as a string
    }
    const jsonReading = isString ? 'json_text' : 'value';
    if (parsed && validate(data)) {
      parentPort.postMessage({ job, outcome: 'valid', reading: jsonReading });
      return;
    }
    const jsonErrors = parsed ? validate.errors || [] : undefined;
    if (isString && validate(text)) {
      parentPort.postMessage({ job, outcome: 'valid', reading: 'string' });
      return;
    }
    const errors = jsonErrors || validate.errors || [];
    parentPort.postMessage({
      job,
      outcome: 'invalid',
      reading: parsed ? jsonReading : 'string',
      errorCount: errors.length,
      errors: errors.slice(0, workerData.maxErrors).map((error) => ({
        instancePath: error.instancePath,
        schemaPath: error.schemaPath,
        keyword: error.keyword,
        message: typeof error.message === 'string' ? error.message : '',
      })),
    });
  } catch (error) {
    const name = error !== null && typeof error === 'object' && typeof error.name === 'string' ? error.name : 'Error';
    parentPort.postMessage({ job, outcome: 'failed', errorName: name });
  }
});
parentPort.postMessage({ ready: true });
`;
