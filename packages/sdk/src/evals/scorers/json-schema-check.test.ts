import { describe, expect, it } from 'vitest';
import { RUNAWAY_SCHEMA, runawayOutput } from './__fixtures__/runaway-schema.js';
import { compileSchema } from './compile-schema.js';
import { scoreJsonSchema } from './json-schema-check.js';
import { SchemaWorker, type StartDeadline } from './schema-worker.js';

const person = compileSchema(
  {
    type: 'object',
    required: ['name', 'age'],
    properties: { name: { type: 'string', minLength: 1 }, age: { type: 'integer', minimum: 0 } },
    additionalProperties: false,
  },
  'schema',
);

/** The longest `schemaTimeoutMillis`, for validations that must finish: a loaded machine only slows them. */
const LONGEST = 60_000;

function passed(explanation: string) {
  return { status: 'scored', metrics: [{ name: 'json_schema', value: true, passed: true }], explanation };
}

/** Waits for something the worker reaches on its own; only the test's timeout bounds it. */
async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('scoreJsonSchema', () => {
  it('passes a value that validates', async () => {
    expect(await scoreJsonSchema({ name: 'Ada', age: 36 }, person, LONGEST)).toEqual(
      passed('The output matches the JSON Schema.'),
    );
  });

  it('reads a string output as JSON text', async () => {
    expect(await scoreJsonSchema('{"name":"Ada","age":36}', person, LONGEST)).toEqual(
      passed('The output, read as JSON text, matches the JSON Schema.'),
    );
  });

  it('validates a string output as a string when the schema is about strings', async () => {
    const words = compileSchema({ type: 'string', pattern: '^[a-z ]+$' }, 'schema');
    expect(await scoreJsonSchema('hello world', words, LONGEST)).toEqual(
      passed('The output string matches the JSON Schema.'),
    );
    // JSON text that is a number, as a string, is still a string
    expect(await scoreJsonSchema('42', compileSchema({ type: 'string' }, 'schema'), LONGEST)).toEqual(
      passed('The output string matches the JSON Schema.'),
    );
  });

  it('fails an invalid value, as a scored check with every error as evidence', async () => {
    const score = await scoreJsonSchema({ name: '', age: -1, extra: true }, person, LONGEST);
    expect(score).toEqual({
      status: 'scored',
      metrics: [{ name: 'json_schema', value: false, passed: false }],
      explanation: 'The output does not match the JSON Schema (3 errors).',
      evidence: {
        reading: 'value',
        errorCount: 3,
        errors: expect.arrayContaining([
          expect.objectContaining({ instancePath: '', keyword: 'additionalProperties' }),
          expect.objectContaining({ instancePath: '/name', keyword: 'minLength' }),
          {
            instancePath: '/age',
            schemaPath: '#/properties/age/minimum',
            keyword: 'minimum',
            message: 'must be >= 0',
          },
        ]),
      },
    });
  });

  it('reports the JSON reading of text that parses but does not validate', async () => {
    const score = await scoreJsonSchema('{"name":"Ada"}', person, LONGEST);
    expect(score).toMatchObject({
      status: 'scored',
      metrics: [{ value: false, passed: false }],
      explanation:
        'The output, read as JSON text, does not match the JSON Schema (1 error), nor does the string itself.',
      evidence: { reading: 'json_text', errorCount: 1, errors: [{ keyword: 'required', instancePath: '' }] },
    });
  });

  it('fails text that is not JSON against a schema of objects', async () => {
    expect(await scoreJsonSchema('Ada, 36', person, LONGEST)).toMatchObject({
      status: 'scored',
      metrics: [{ name: 'json_schema', value: false, passed: false }],
      explanation:
        'The output is text that is not JSON, and as a string it does not match the JSON Schema (1 error).',
      evidence: {
        reading: 'string',
        errorCount: 1,
        errors: [{ keyword: 'type', message: 'must be object' }],
      },
    });
  });

  it('validates null and boolean schemas', async () => {
    expect(await scoreJsonSchema(null, compileSchema({ type: 'null' }, 'schema'), LONGEST)).toMatchObject({
      metrics: [{ value: true }],
    });
    expect(await scoreJsonSchema({ any: 1 }, compileSchema(true, 'schema'), LONGEST)).toMatchObject({
      metrics: [{ value: true }],
    });
    expect(await scoreJsonSchema({ any: 1 }, compileSchema(false, 'schema'), LONGEST)).toMatchObject({
      metrics: [{ value: false }],
      evidence: { errorCount: 1, errors: [{ keyword: 'false schema' }] },
    });
  });

  it('ends a runaway validation at the timeout with an error Score, then validates again', async () => {
    const schema = compileSchema(RUNAWAY_SCHEMA, 'schema');
    expect(await scoreJsonSchema(runawayOutput(), schema, 100)).toEqual({
      status: 'error',
      error: {
        type: 'SchemaTimeoutError',
        message: 'JSON Schema validation did not finish within 100 ms (schemaTimeoutMillis).',
      },
    });
    // the worker was replaced: the same schema still validates
    expect(await scoreJsonSchema([{ i: 1 }, { i: 2 }], schema, LONGEST)).toMatchObject({
      metrics: [{ value: true }],
    });
    expect(await scoreJsonSchema([{ i: 1 }, { i: 1 }], schema, LONGEST)).toMatchObject({
      metrics: [{ value: false }],
    });
  });

  it('does not count the wait behind a runaway validation against the next one', async () => {
    // Deadlines expire when this test says: each is recorded with the time it was given.
    const deadlines: { millis: number; expire: () => void; cancelled: boolean }[] = [];
    const startDeadline: StartDeadline = (millis, expire) => {
      const deadline = { millis, expire, cancelled: false };
      deadlines.push(deadline);
      return () => {
        deadline.cancelled = true;
      };
    };
    const worker = new SchemaWorker(startDeadline);
    try {
      const runaway = worker.validate(compileSchema(RUNAWAY_SCHEMA, 'schema'), runawayOutput(), 400);
      const queued = worker.validate(person, { name: 'Ada', age: 36 }, 300);
      await waitFor(() => deadlines.length === 1);
      // Only the running validation's deadline has started: the queued one waits without a clock.
      expect(deadlines.map(({ millis }) => millis)).toEqual([400]);
      deadlines[0]!.expire();
      expect(await runaway).toEqual({ outcome: 'timeout' });
      // Its own 300 ms start when the new worker receives it, and they do not expire here.
      expect(await queued).toEqual({ outcome: 'valid', reading: 'value' });
      expect(deadlines.map(({ millis }) => millis)).toEqual([400, 300]);
      expect(deadlines[1]!.cancelled).toBe(true);
    } finally {
      worker.close();
    }
  });

  it('scores concurrent validations each against its own schema', async () => {
    const even = compileSchema({ type: 'integer', multipleOf: 2 }, 'schema');
    const outputs = Array.from({ length: 40 }, (_, index) => index);
    const scores = await Promise.all(outputs.map((output) => scoreJsonSchema(output, even, LONGEST)));
    expect(scores.map((score) => score.status === 'scored' && score.metrics[0]?.value)).toEqual(
      outputs.map((output) => output % 2 === 0),
    );
  });
});
