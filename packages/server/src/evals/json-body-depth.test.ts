import { describe, expect, it } from 'vitest';
import { useServer } from '../test-support/server-fixture.js';
import { EVAL_ROUTE_ACCESS } from './eval-route-access.js';
import { type ErrorBody, evalRequests, UNKNOWN_ID } from './test-support/eval-requests.js';

// Issue 13 item 3: every JSON body the service takes nests at most 64 levels of arrays and objects
// (the body's own object is the first); deeper is a 400 naming the path and the limit, checked
// before any record is looked up, whatever the depth (3,500 levels made these routes answer 500
// with a RangeError).
const fx = useServer();
const api = evalRequests(fx);

const LIMIT = 64;

/** JSON text of `depth` nested arrays, the innermost holding `1`. */
function nested(depth: number): string {
  return `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}

/** The dotted path of the first array past the limit when `field` holds deeply nested arrays. */
function pathPastLimit(field: string): string {
  // `field` is at level 2 (inside the body's object); its arrays go one level deeper each.
  const levelsBelowField = LIMIT + 1 - 2;
  return [field, ...Array<string>(levelsBelowField).fill('0')].join('.');
}

function expectDepthError(res: { status: number; body: unknown }, path: string): void {
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(400);
  const { error } = res.body as ErrorBody;
  expect(error.code).toBe('invalid_request');
  expect(error.message).toBe(
    `${path}: nests deeper than 64 levels of arrays and objects, the limit of a JSON request body (the body itself is the first level).`,
  );
}

const V = `/dataset-versions/${UNKNOWN_ID}`;

/**
 * The JSON fields the issue names, each in a request to a record that does not exist: the depth
 * check comes first, so the answer is the 400 and not the 404 (or 409) of a later check.
 */
const NAMED: Array<{
  route: string;
  path: string;
  field: string;
  body: (deep: string) => string;
  key?: 'machine';
}> = [
  {
    route: 'case inputs',
    path: `${V}/cases`,
    field: 'inputs',
    body: (deep) => `{"expectedRevision":1,"externalKey":"k","inputs":${deep}}`,
  },
  {
    route: 'case metadata',
    path: `${V}/cases`,
    field: 'metadata',
    body: (deep) => `{"expectedRevision":1,"externalKey":"k","inputs":1,"metadata":${deep}}`,
  },
  {
    route: 'case expected',
    path: `${V}/cases`,
    field: 'expected',
    body: (deep) => `{"expectedRevision":1,"externalKey":"k","inputs":1,"expected":${deep}}`,
  },
  {
    route: 'eval-set case inputs',
    path: `${V}/eval-set-cases`,
    field: 'inputs',
    body: (deep) => `{"expectedRevision":1,"externalKey":"k","inputs":${deep}}`,
  },
  {
    route: 'scorer version json_schema.schema',
    path: `/scorers/${UNKNOWN_ID}/versions`,
    field: 'schema',
    body: (deep) => `{"kind":"builtin","builtin":"json_schema","schema":${deep},"metrics":[]}`,
  },
  {
    route: 'experiment config',
    path: '/experiments',
    field: 'config',
    body: (deep) =>
      `{"idempotencyKey":"k","name":"E","datasetVersionId":"${UNKNOWN_ID}","scorerVersionIds":[],"config":${deep}}`,
  },
  {
    route: 'execution-complete output',
    path: `/executions/${UNKNOWN_ID}/complete`,
    field: 'output',
    body: (deep) => `{"state":"succeeded","output":${deep},"traceEvidence":"omit","omissionReason":"r"}`,
  },
  {
    route: 'results evidence',
    path: `/runs/${UNKNOWN_ID}/results`,
    field: 'results',
    body: (deep) =>
      `{"results":[{"evaluationItemId":"${UNKNOWN_ID}","scorerVersionId":"${UNKNOWN_ID}","status":"scored","evidence":${deep}}]}`,
  },
  {
    route: 'managed outcome output',
    path: `/executions/${UNKNOWN_ID}/outcome`,
    field: 'output',
    key: 'machine',
    body: (deep) => `{"claimId":"${UNKNOWN_ID}","state":"succeeded","output":${deep}}`,
  },
];

/** The path reported for NAMED's `results` row: evidence sits two levels deeper (array, item). */
function namedPath(row: (typeof NAMED)[number]): string {
  if (row.field !== 'results') return pathPastLimit(row.field);
  return ['results', '0', 'evidence', ...Array<string>(LIMIT + 1 - 4).fill('0')].join('.');
}

describe('JSON body nesting limit (evaluation routes)', () => {
  it.each(NAMED)(
    '$route: 3,500 levels → 400 naming the path and the limit, before any lookup',
    async (row) => {
      const key = row.key === 'machine' ? fx.server.keys.machine : undefined;
      const res = await api.post<ErrorBody>(row.path, row.body(nested(3_500)), key ? { key } : {});
      expectDepthError(res, namedPath(row));
    },
  );

  it.each(NAMED)('$route: at the limit the body is not refused for its depth', async (row) => {
    const key = row.key === 'machine' ? fx.server.keys.machine : undefined;
    const levelsOfField = row.field === 'results' ? LIMIT - 3 : LIMIT - 1;
    const res = await api.post<ErrorBody>(row.path, row.body(nested(levelsOfField)), key ? { key } : {});
    expect(res.status).not.toBe(500);
    expect(res.body.error?.message ?? '').not.toContain('nests deeper');
  });

  it('answers 400 for 100,000 levels too (no stack overflow, no 500)', async () => {
    const res = await api.post<ErrorBody>(`${V}/cases`, `{"inputs":${nested(100_000)}}`);
    expectDepthError(res, pathPastLimit('inputs'));
  });

  it('names object keys in the path, in document order', async () => {
    let deep = '1';
    for (let level = 0; level < 70; level++) deep = `{"k${level % 2}":${deep}}`;
    const res = await api.post<ErrorBody>(`${V}/cases`, `{"expectedRevision":1,"inputs":[1,${deep}]}`);
    // Level 1 is the body, 2 the inputs array, 3 the first object; level 65 is the 63rd object.
    const keys = Array.from({ length: 62 }, (_, index) => `k${(69 - index) % 2}`);
    expectDepthError(res, ['inputs', '1', ...keys].join('.'));
  });

  const POST_ROUTES = Object.entries(EVAL_ROUTE_ACCESS).filter(([, access]) => access.method === 'POST');

  it('covers every JSON route of the registry', () => {
    expect(POST_ROUTES.length).toBeGreaterThanOrEqual(20);
  });

  it.each(POST_ROUTES)('%s refuses a 3,500-level body with 400 before validating it', async (id, access) => {
    const path = access.path.replace('/api/v1/evals', '').replace(/\{\w+\}/g, UNKNOWN_ID);
    const presets: readonly string[] = access.presets;
    const key = presets.includes('machine') ? fx.server.keys.machine : fx.server.keys.readWrite;
    const res = await api.post<ErrorBody>(path, `{"deep":${nested(3_500)}}`, { key });
    expect(res.status, id).toBe(400);
    expectDepthError(res, pathPastLimit('deep'));
  });
});
