import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { supportScenario } from '../test-support/support-scenario.js';
import { scenarioDocumentJsonSchema } from './document-json-schema.js';
import { validateDocument } from './validate-document.js';

/** A document broken on purpose: any member may be set to anything. */
// biome-ignore lint/suspicious/noExplicitAny: the tests break documents member by member
type Broken = Record<string, any>;

function problemsOf(document: unknown) {
  const validation = validateDocument(document);
  if (validation.ok) throw new Error('the document was valid');
  return validation;
}

describe('scenario documents', () => {
  it('accepts the support scenario', () => {
    const validation = validateDocument(supportScenario());
    expect(validation.ok, JSON.stringify(validation)).toBe(true);
  });

  it('answers every schema problem at once, each with its JSON Pointer path', () => {
    const broken = JSON.parse(JSON.stringify(supportScenario())) as Broken;
    broken.slug = 'Not A Slug';
    broken.world.tools[0].effect = { op: 'zap', pointer: '/x' };
    broken.world.tools[1].name = '1bad';
    broken.cases[1].extra = true;
    broken.grading.checks[2].kind = 'vibes';
    delete broken.cases[0].inputs;
    const { problems, breaksSchema } = problemsOf(broken);
    expect(breaksSchema).toBe(true);
    expect(problems.map((problem) => problem.path)).toEqual(
      expect.arrayContaining([
        '/slug',
        '/world/tools/0/effect/op',
        '/world/tools/1/name',
        '/cases/1/extra',
        '/grading/checks/2/kind',
        '/cases/0/inputs',
      ]),
    );
    expect(problems.find((problem) => problem.path === '/world/tools/0/effect/op')?.message).toBe(
      'must be one of "read", "query", "create", "update", "merge", "delete"',
    );
  });

  it('answers every rule problem beyond the schema at once (422), each with its path', () => {
    const broken = JSON.parse(JSON.stringify(supportScenario())) as Broken;
    broken.world.tools[1].name = 'get_order';
    broken.world.tools[0].effect.pointer = '/orders/{orderId}';
    broken.world.tools[2].effect.value = { id: { $arg: 'nope' } };
    broken.world.tools[3].arguments = { type: 'string' };
    broken.world.tools[2].preconditions[0].pointer = 'orders/{order_id}';
    broken.cases[2].state[0].path = '/customers/c1';
    broken.cases[1].key = 'refund-delivered';
    broken.grading.checks[0].cases = ['nowhere'];
    broken.grading.checks[5].tool = 'launch_rockets';
    broken.grading.checks[6].pointer = '/orders/~2';
    broken.grading.checks.push({
      name: 'one refund',
      kind: 'state',
      assert: 'absent',
      pointer: '/x',
      cases: ['refund-delivered'],
    });
    broken.grading.checks.push({
      name: 'shape',
      kind: 'output',
      scorer: 'json_schema',
      schema: { type: 'nonsense' },
    });
    const { problems, breaksSchema } = problemsOf(broken);
    expect(breaksSchema).toBe(false);
    const byPath = Object.fromEntries(problems.map((problem) => [problem.path, problem.message]));
    expect(byPath).toMatchObject({
      '/world/tools/1/name': 'repeats the name of another tool',
      '/world/tools/0/effect/pointer': expect.stringContaining('"orderId"'),
      '/world/tools/2/effect/value': expect.stringContaining('"nope"'),
      '/world/tools/3/arguments/type': expect.stringContaining('"object"'),
      '/world/tools/2/preconditions/0/pointer': expect.stringContaining('is not a JSON Pointer'),
      '/cases/2/state/0/path': 'names a location whose parent does not exist',
      '/cases/1/key': 'repeats the key of another case',
      '/grading/checks/0/cases/0': expect.stringContaining('"nowhere"'),
      '/grading/checks/5/tool': expect.stringContaining('"launch_rockets"'),
      '/grading/checks/6/pointer': expect.stringContaining('~'),
      '/grading/checks/8/name': expect.stringContaining('repeats the name'),
      '/grading/checks/9/schema': expect.stringContaining('not a valid JSON Schema'),
    });
  });

  it('needs a required check for every case', () => {
    const document = supportScenario();
    document.grading.checks = document.grading.checks.filter((check) => check.cases?.[0] !== 'cancel-new');
    const { problems } = problemsOf(document);
    expect(problems).toEqual([{ path: '/cases/2', message: expect.stringContaining('no required check') }]);
  });

  it('never echoes a value of the document in a problem', () => {
    const broken = JSON.parse(JSON.stringify(supportScenario())) as Broken;
    broken.name = 'SECRET-NAME '.repeat(30);
    broken.world.tools[0].description = 42;
    broken.grading.checks[0].value = undefined;
    broken.grading.checks[3].expected = { note: 'SECRET-EXPECTED' };
    broken.grading.checks[3].scorer = 'SECRET-SCORER';
    const { problems } = problemsOf(broken);
    expect(JSON.stringify(problems)).not.toContain('SECRET');
  });

  it('publishes its JSON Schema, generated from the validating schema (the file is current)', async () => {
    const schema = scenarioDocumentJsonSchema();
    await expect(`${JSON.stringify(schema, null, 2)}\n`).toMatchFileSnapshot(
      '../../../scenario-document.schema.json',
    );
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(schema);
    expect(validate(supportScenario()), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...supportScenario(), name: ' ' })).toBe(false);
    expect(validate({ ...supportScenario(), name: 'x'.repeat(257) })).toBe(false);
  });
});
