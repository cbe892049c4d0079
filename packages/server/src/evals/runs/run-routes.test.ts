import { beforeAll, describe, expect, it } from 'vitest';
import { useServer } from '../../test-support/server-fixture.js';
import { type ErrorBody, evalRequests, UNKNOWN_ID } from '../test-support/eval-requests.js';
import { datasetVersion, experiment, scorerVersion } from '../test-support/eval-setup.js';

const fx = useServer();
const api = evalRequests(fx);
const DIGEST = 'c'.repeat(64);

interface Ctx {
  experimentId: string;
  runId: string;
  items: string[];
  subjects: string[];
  exact: string;
  local: string;
  manual: string;
  judge: string;
}

const ctx = {} as Ctx;

beforeAll(async () => {
  const { versionId, caseIds } = await datasetVersion(api, [
    { externalKey: 'a', inputs: { q: 'a' }, expected: 'A' },
    { externalKey: 'b', inputs: { q: 'b' } },
  ]);
  ctx.exact = await scorerVersion(api, { kind: 'builtin', builtin: 'exact_match' });
  ctx.local = await scorerVersion(api, {
    kind: 'local_code',
    language: 'typescript',
    entrypoint: 'tone.ts#score',
    sourceDigest: `sha256:${DIGEST}`,
    metrics: [
      { name: 'tone', type: 'category', categories: ['polite', 'rude'] },
      { name: 'confidence', type: 'number', min: 0, max: 1 },
    ],
  });
  ctx.manual = await scorerVersion(api, { kind: 'manual', metrics: [{ name: 'approved', type: 'boolean' }] });
  ctx.judge = await scorerVersion(api, {
    kind: 'llm_judge',
    metrics: [{ name: 'polite', type: 'boolean' }],
    config: {
      model: 'm',
      provider: 'p',
      rubric: 'r',
      bindings: [{ name: 'answer', path: '/output', required: true }],
      maxOutputTokens: 10,
      timeoutMs: 1000,
    },
  });
  const created = await experiment(api, versionId, [ctx.exact, ctx.local, ctx.manual, ctx.judge]);
  ctx.experimentId = created.id;
  ctx.runId = created.evaluationRunId;
  ctx.items = [];
  ctx.subjects = [];
  for (const [index, caseId] of caseIds.entries()) {
    const started = await api.post<{ id: string }>(
      `/experiments/${created.id}/cases/${caseId}/executions`,
      {},
    );
    const body =
      index === 0 ? { state: 'succeeded', output: 'A' } : { state: 'error', error: { type: 'Boom' } };
    const done = await api.post<{ evaluationItemId: string; subjectId: string }>(
      `/executions/${started.body.id}/complete`,
      body,
    );
    ctx.items.push(done.body.evaluationItemId);
    ctx.subjects.push(done.body.subjectId);
  }
});

function submit(results: unknown[], runId = ctx.runId, key?: string) {
  return api.post<{ ids: string[] } & ErrorBody>(`/runs/${runId}/results`, { results }, key ? { key } : {});
}

const exactScore = (itemIndex: number) => ({
  evaluationItemId: ctx.items[itemIndex],
  scorerVersionId: ctx.exact,
  status: 'scored',
  metrics: [{ name: 'exact_match', value: true, passed: true }],
  explanation: 'Output equals expected.',
});

describe('runs, items and subjects', () => {
  it("shows the experiment's run with an item per completed execution", async () => {
    const run = await api.get(`/runs/${ctx.runId}`, { key: fx.server.keys.read });
    expect(run.body).toMatchObject({
      experimentId: ctx.experimentId,
      itemCount: 2,
      scorerVersionIds: [ctx.exact, ctx.local, ctx.manual, ctx.judge],
    });
    const items = await api.get<{ items: { id: string; subjectId: string }[] }>(`/runs/${ctx.runId}/items`);
    expect(items.body.items.map((item) => item.id)).toEqual(ctx.items);
    expect(items.body.items.map((item) => item.subjectId)).toEqual(ctx.subjects);
  });

  it('reads subjects with their case and execution outcome', async () => {
    const a = await api.get(`/subjects/${ctx.subjects[0]}`, { key: fx.server.keys.read });
    expect(a.body).toMatchObject({
      executionState: 'succeeded',
      inputs: { q: 'a' },
      expected: 'A',
      output: 'A',
      experimentId: ctx.experimentId,
    });
    const b = await api.get(`/subjects/${ctx.subjects[1]}`);
    expect(b.body).toMatchObject({ executionState: 'error', error: { type: 'Boom' } });
    expect('expected' in b.body).toBe(false);
    expect('output' in b.body).toBe(false);
    expect((await api.get(`/subjects/${UNKNOWN_ID}`)).status).toBe(404);
  });

  it('creates a run over subject IDs, with an item per subject in order', async () => {
    const created = await api.post<{ id: string }>('/runs', {
      name: 'Rescore',
      subjectIds: [...ctx.subjects].reverse(),
      scorerVersionIds: [ctx.exact],
    });
    expect(created.status).toBe(200);
    const run = await api.get(`/runs/${created.body.id}`);
    expect(run.body).toMatchObject({ name: 'Rescore', experimentId: null, itemCount: 2 });
    const items = await api.get<{ items: { subjectId: string }[] }>(`/runs/${created.body.id}/items?limit=1`);
    expect(items.body.items.map((item) => item.subjectId)).toEqual([ctx.subjects[1]]);
  });

  it.each([
    [{ subjectIds: [], scorerVersionIds: ['x'] }, 400, 'subjectIds'],
    [{ subjectIds: ['s'], scorerVersionIds: [] }, 400, 'subjectIds'],
    [{ scorerVersionIds: [] }, 400, 'subjectIds'],
  ])('refuses the run %j', async (body, status, field) => {
    const res = await api.post<ErrorBody>('/runs', { name: 'x', ...body });
    expect(res.status).toBe(status);
    expect(res.body.error.message).toContain(field);
  });

  it('refuses unknown subjects and scorer versions, naming the index', async () => {
    const unknownSubject = await api.post<ErrorBody>('/runs', {
      name: 'x',
      subjectIds: [ctx.subjects[0], UNKNOWN_ID],
      scorerVersionIds: [ctx.exact],
    });
    expect(unknownSubject.status).toBe(404);
    expect(unknownSubject.body.error.message).toContain('subjectIds[1]');
    const unknownScorer = await api.post<ErrorBody>('/runs', {
      name: 'x',
      subjectIds: [ctx.subjects[0]],
      scorerVersionIds: [UNKNOWN_ID],
    });
    expect(unknownScorer.status).toBe(404);
    const repeated = await api.post<ErrorBody>('/runs', {
      name: 'x',
      subjectIds: [ctx.subjects[0], ctx.subjects[0]],
      scorerVersionIds: [ctx.exact],
    });
    expect(repeated.status).toBe(422);
  });
});

describe('results', () => {
  it('stores results of every status; lists, reads and shows them in the case view', async () => {
    const res = await submit([
      exactScore(0),
      {
        evaluationItemId: ctx.items[0],
        scorerVersionId: ctx.local,
        status: 'scored',
        metrics: [
          { name: 'confidence', value: 0.9 },
          { name: 'tone', value: 'polite', passed: true },
        ],
        evidence: { matched: ['please'] },
        sourceDigest: DIGEST,
      },
      {
        evaluationItemId: ctx.items[1],
        scorerVersionId: ctx.exact,
        status: 'skipped',
        explanation: 'No output.',
      },
      {
        evaluationItemId: ctx.items[1],
        scorerVersionId: ctx.local,
        status: 'error',
        error: { type: 'TypeError', message: 'x is undefined' },
        sourceDigest: `sha256:${DIGEST}`,
      },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.ids).toHaveLength(4);
    const local = await api.get(`/results/${res.body.ids[1]}`, { key: fx.server.keys.read });
    expect(local.body).toMatchObject({
      runId: ctx.runId,
      evaluationItemId: ctx.items[0],
      subjectId: ctx.subjects[0],
      status: 'scored',
      evidence: { matched: ['please'] },
      sourceDigest: `sha256:${DIGEST}`,
      judgeJobId: null,
    });
    expect('explanation' in local.body).toBe(false);
    const page = await api.get<{ items: { id: string }[] }>(`/runs/${ctx.runId}/results?limit=100`);
    expect(page.body.items.map((r) => r.id)).toEqual(expect.arrayContaining(res.body.ids));
    const experimentItem = await api.get<{ items: { caseId: string }[] }>(
      `/experiments/${ctx.experimentId}/items?limit=1`,
    );
    const view = await api.get<{ results: { id: string }[] }>(
      `/experiments/${ctx.experimentId}/cases/${experimentItem.body.items[0]!.caseId}`,
    );
    expect(view.body.results.map((r) => r.id)).toEqual(res.body.ids.slice(0, 2));
  });

  it('never stores a result twice for an item and scorer version', async () => {
    const manual = {
      evaluationItemId: ctx.items[0],
      scorerVersionId: ctx.manual,
      status: 'scored',
      metrics: [{ name: 'approved', value: true }],
      explanation: 'ok',
    };
    const twice = await submit([manual, manual]);
    expect(twice.status).toBe(422); // a rule beyond the JSON Schema
    expect(twice.body.error.message).toContain('results.1');
    expect((await submit([manual])).status).toBe(200);
    const again = await submit([manual]);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
  });

  it.each([
    ['a missing metric', { metrics: [{ name: 'tone', value: 'polite' }] }, 'metrics'],
    [
      'an extra metric',
      {
        metrics: [
          { name: 'tone', value: 'polite' },
          { name: 'confidence', value: 1 },
          { name: 'length', value: 3 },
        ],
      },
      'metrics.2.name',
    ],
    [
      'a repeated metric',
      {
        metrics: [
          { name: 'tone', value: 'polite' },
          { name: 'tone', value: 'rude' },
        ],
      },
      'metrics.1.name',
    ],
    [
      'a category outside the list',
      {
        metrics: [
          { name: 'tone', value: 'sarcastic' },
          { name: 'confidence', value: 1 },
        ],
      },
      'metrics.0.value',
    ],
    [
      'a number above max',
      {
        metrics: [
          { name: 'tone', value: 'rude' },
          { name: 'confidence', value: 1.5 },
        ],
      },
      'metrics.1.value',
    ],
    [
      'a number of the wrong type',
      {
        metrics: [
          { name: 'tone', value: 'rude' },
          { name: 'confidence', value: '0.5' },
        ],
      },
      'metrics.1.value',
    ],
  ])('refuses metrics that do not match the pinned definitions: %s', async (_what, fields, field) => {
    const res = await submit([
      {
        evaluationItemId: ctx.items[1],
        scorerVersionId: ctx.local,
        status: 'scored',
        explanation: 'x',
        sourceDigest: DIGEST,
        ...fields,
      },
    ]);
    expect(res.status).toBe(422); // the pinned definitions: beyond the JSON Schema
    expect(res.body.error.message).toContain(`results.0.${field}`);
    expect(res.body.error.message).toContain('pinned definitions');
  });

  it.each([
    [
      'scored without explanation or evidence',
      { status: 'scored', metrics: [{ name: 'approved', value: true }] },
      'explanation',
    ],
    [
      'scored with a blank explanation',
      { status: 'scored', metrics: [{ name: 'approved', value: true }], explanation: ' ' },
      'explanation',
    ],
    [
      'scored with an error',
      {
        status: 'scored',
        metrics: [{ name: 'approved', value: true }],
        explanation: 'x',
        error: { type: 'X' },
      },
      'error',
    ],
    ['error without error', { status: 'error' }, 'error'],
    ['error with metrics', { status: 'error', error: { type: 'X' }, metrics: [] }, 'metrics'],
    ['skipped without explanation', { status: 'skipped' }, 'explanation'],
    ['skipped with evidence', { status: 'skipped', explanation: 'x', evidence: 1 }, 'evidence'],
    // 400 below: the schema of the document states these.
    ['an unknown status', { status: 'pending' }, 'status', 400],
    [
      'passed that is not a boolean',
      { status: 'scored', metrics: [{ name: 'approved', value: true, passed: 'yes' }], explanation: 'x' },
      'passed',
      400,
    ],
  ] as Array<[string, Record<string, unknown>, string, number?]>)(
    'refuses a result breaking the Score rules: %s',
    async (_what, fields, field, status = 422) => {
      const res = await submit([{ evaluationItemId: ctx.items[1], scorerVersionId: ctx.manual, ...fields }]);
      // 422 by default: the Score rules relate fields, which JSON Schema cannot state.
      expect(res.status).toBe(status);
      expect(res.body.error.message).toContain(field);
    },
  );

  it('checks sourceDigest: required and equal for local code, refused otherwise', async () => {
    const local = {
      evaluationItemId: ctx.items[1],
      scorerVersionId: ctx.local,
      status: 'skipped',
      explanation: 'x',
    };
    const missing = await submit([local]);
    expect(missing.status).toBe(422);
    expect(missing.body.error.message).toContain('sourceDigest');
    const other = await submit([{ ...local, sourceDigest: 'd'.repeat(64) }]);
    expect(other.status).toBe(409);
    expect(other.body.error.message).toContain('publish a new version');
    const builtin = await submit([{ ...exactScore(1), sourceDigest: DIGEST }]);
    expect(builtin.status).toBe(422);
  });

  it('stores nothing when one result of a submission is refused', async () => {
    const before = await api.get<{ items: unknown[] }>(`/runs/${ctx.runId}/results?limit=100`);
    const res = await submit([
      {
        evaluationItemId: ctx.items[1],
        scorerVersionId: ctx.manual,
        status: 'skipped',
        explanation: 'later',
      },
      { evaluationItemId: ctx.items[1], scorerVersionId: ctx.manual, status: 'skipped' },
    ]);
    expect(res.status).toBe(422);
    const after = await api.get<{ items: unknown[] }>(`/runs/${ctx.runId}/results?limit=100`);
    expect(after.body.items).toHaveLength(before.body.items.length);
  });

  it('refuses items of another run, scorer versions the run does not pin, and hosted judge results', async () => {
    const other = await api.post<{ id: string }>('/runs', {
      name: 'Other',
      subjectIds: [ctx.subjects[0]],
      scorerVersionIds: [ctx.manual],
    });
    const foreignItem = await submit([exactScore(0)], other.body.id);
    expect(foreignItem.status).toBe(404);
    expect(foreignItem.body.error.message).toContain('evaluationItemId');
    const items = await api.get<{ items: { id: string }[] }>(`/runs/${other.body.id}/items`);
    const notPinned = await submit(
      [{ ...exactScore(0), evaluationItemId: items.body.items[0]!.id }],
      other.body.id,
    );
    expect(notPinned.status).toBe(422);
    expect(notPinned.body.error.message).toContain('not a scorer version of this run');
    const judge = await submit([
      { evaluationItemId: ctx.items[1], scorerVersionId: ctx.judge, status: 'skipped', explanation: 'x' },
    ]);
    expect(judge.status).toBe(409);
    expect(judge.body.error.message).toContain('judge jobs');
    expect((await submit([exactScore(0)], UNKNOWN_ID)).status).toBe(404);
    expect((await api.get(`/results/${UNKNOWN_ID}`)).status).toBe(404);
    expect((await submit([exactScore(1)], ctx.runId, fx.server.keys.read)).status).toBe(403);
  });
});
