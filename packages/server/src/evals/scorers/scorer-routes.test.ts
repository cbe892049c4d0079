import { describe, expect, it } from 'vitest';
import { useServer } from '../../test-support/server-fixture.js';
import { type ErrorBody, evalRequests, UNKNOWN_ID, uniqueSlug } from '../test-support/eval-requests.js';

const fx = useServer();
const api = evalRequests(fx);

interface Version {
  id: string;
  scorerId: string;
  number: number;
  definition: Record<string, unknown>;
}

const DIGEST = 'a'.repeat(64);

const JUDGE_CONFIG = {
  model: 'judge-1',
  provider: 'mock',
  rubric: 'Is the answer polite?',
  bindings: [{ name: 'answer', path: '/output', required: true }],
  maxOutputTokens: 256,
  timeoutMs: 10_000,
};

async function newScorer(): Promise<string> {
  const res = await api.post<{ id: string }>('/scorers', { name: 'Tone', slug: uniqueSlug('tone') });
  expect(res.status).toBe(200);
  return res.body.id;
}

describe('scorers', () => {
  it('creates, reads and lists scorers; a taken slug is 409', async () => {
    const slug = uniqueSlug('scorer');
    const created = await api.post('/scorers', { name: 'Politeness', slug });
    expect(created.body).toMatchObject({ slug, latestVersionId: null, versionCount: 0 });
    expect((await api.get(`/scorers/${created.body.id}`, { key: fx.server.keys.read })).body).toEqual(
      created.body,
    );
    const page = await api.get<{ items: { id: string }[] }>('/scorers?limit=100');
    expect(page.body.items.map((s) => s.id)).toContain(created.body.id);
    const again = await api.post<ErrorBody>('/scorers', { name: 'Other', slug });
    expect(again.status).toBe(409);
    expect((await api.get(`/scorers/${UNKNOWN_ID}`)).status).toBe(404);
  });

  it('publishes immutable, numbered versions of every kind, with defaults applied', async () => {
    const scorerId = await newScorer();
    const definitions = [
      { kind: 'builtin', builtin: 'exact_match' },
      { kind: 'builtin', builtin: 'includes' },
      {
        kind: 'builtin',
        builtin: 'includes',
        caseSensitive: false,
        metrics: [{ name: 'includes', type: 'boolean' }],
      },
      {
        kind: 'builtin',
        builtin: 'json_schema',
        schema: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'string', pattern: '^[a-z]+$' } },
        },
      },
      { kind: 'builtin', builtin: 'json_schema', schema: true },
      {
        kind: 'local_code',
        language: 'typescript',
        entrypoint: 'scorers/tone.ts#score',
        sourceDigest: DIGEST,
        metrics: [{ name: 'tone', type: 'category', categories: ['polite', 'rude'] }],
      },
      {
        kind: 'local_code',
        language: 'python',
        entrypoint: 'tone.py:score',
        sourceDigest: `sha256:${DIGEST}`,
        metrics: [{ name: 'score', type: 'number', min: 0, max: 1 }],
      },
      {
        kind: 'manual',
        metrics: [
          { name: 'ok', type: 'boolean' },
          { name: 'note', type: 'text' },
        ],
      },
      {
        kind: 'llm_judge',
        metrics: [{ name: 'polite', type: 'boolean' }],
        config: { ...JUDGE_CONFIG, temperature: 0 },
      },
    ];
    const versions: Version[] = [];
    for (const definition of definitions) {
      const res = await api.post<Version>(`/scorers/${scorerId}/versions`, definition);
      expect(res.status, JSON.stringify(definition)).toBe(200);
      versions.push(res.body);
    }
    expect(versions.map((v) => v.number)).toEqual(definitions.map((_, i) => i + 1));
    expect(versions[0]!.definition).toEqual({
      kind: 'builtin',
      builtin: 'exact_match',
      metrics: [{ name: 'exact_match', type: 'boolean' }],
    });
    expect(versions[1]!.definition).toMatchObject({
      caseSensitive: true,
      metrics: [{ name: 'includes', type: 'boolean' }],
    });
    expect(versions[2]!.definition).toMatchObject({ caseSensitive: false });
    expect(versions[5]!.definition.sourceDigest).toBe(`sha256:${DIGEST}`);
    expect(versions[6]!.definition.sourceDigest).toBe(`sha256:${DIGEST}`);
    expect(
      (await api.get<Version>(`/scorer-versions/${versions[0]!.id}`, { key: fx.server.keys.read })).body,
    ).toEqual(versions[0]);
    expect((await api.get(`/scorers/${scorerId}`)).body).toMatchObject({
      latestVersionId: versions.at(-1)!.id,
      versionCount: definitions.length,
    });
  });

  it.each([
    [{ kind: 'automatic' }, 'kind'],
    [{ kind: 'builtin', builtin: 'fuzzy' }, 'builtin'],
    [{ kind: 'builtin', builtin: 'includes', caseSensitive: 'yes' }, 'caseSensitive'],
    [
      { kind: 'builtin', builtin: 'exact_match', metrics: [{ name: 'score', type: 'boolean' }] },
      'metrics.0.name',
    ],
    [{ kind: 'builtin', builtin: 'json_schema' }, 'schema'],
    // 422: a rule JSON Schema cannot state (the schema is a valid JSON Schema, names are unique, min ≤ max).
    [{ kind: 'builtin', builtin: 'json_schema', schema: { type: 'strin' } }, '/type', 422],
    [
      { kind: 'builtin', builtin: 'json_schema', schema: { properties: { a: { pattern: '(' } } } },
      'Invalid regular expression',
      422,
    ],
    [
      {
        kind: 'builtin',
        builtin: 'json_schema',
        schema: { $schema: 'http://json-schema.org/draft-07/schema#' },
      },
      '$schema',
      422,
    ],
    [{ kind: 'builtin', builtin: 'json_schema', schema: { anyOf: [] } }, '/anyOf', 422],
    [
      { kind: 'builtin', builtin: 'json_schema', schema: { $ref: '#/$defs/missing' } },
      "can't resolve reference",
      422,
    ],
    [
      {
        kind: 'local_code',
        language: 'ruby',
        entrypoint: 'x',
        sourceDigest: DIGEST,
        metrics: [{ name: 'm', type: 'boolean' }],
      },
      'language',
    ],
    [
      {
        kind: 'local_code',
        language: 'typescript',
        entrypoint: 'x',
        sourceDigest: 'md5:abc',
        metrics: [{ name: 'm', type: 'boolean' }],
      },
      'sourceDigest',
    ],
    [
      {
        kind: 'local_code',
        language: 'typescript',
        entrypoint: ' ',
        sourceDigest: DIGEST,
        metrics: [{ name: 'm', type: 'boolean' }],
      },
      'entrypoint',
    ],
    [{ kind: 'local_code', language: 'typescript', entrypoint: 'x', sourceDigest: DIGEST }, 'metrics'],
    [{ kind: 'manual', metrics: [] }, 'metrics'],
    [
      {
        kind: 'manual',
        metrics: [
          { name: 'm', type: 'boolean' },
          { name: 'm', type: 'text' },
        ],
      },
      'metrics.1.name',
      422,
    ],
    [{ kind: 'manual', metrics: [{ name: 'm', type: 'number', min: 2, max: 1 }] }, 'metrics.0.min', 422],
    [{ kind: 'manual', metrics: [{ name: 'm', type: 'category', categories: [] }] }, 'metrics.0.categories'],
    [
      { kind: 'manual', metrics: [{ name: 'm', type: 'category', categories: ['a', 'a'] }] },
      'metrics.0.categories',
      422,
    ],
    [{ kind: 'manual', metrics: [{ name: 'm', type: 'boolean', min: 1 }] }, 'min'],
    [{ kind: 'manual', metrics: [{ name: 'm', type: 'percent' }] }, 'metrics.0.type'],
    [{ kind: 'llm_judge', metrics: [{ name: 'p', type: 'boolean' }] }, 'config'],
    [
      {
        kind: 'llm_judge',
        metrics: [{ name: 'p', type: 'boolean' }],
        config: { ...JUDGE_CONFIG, model: undefined },
      },
      'config.model',
    ],
    [
      {
        kind: 'llm_judge',
        metrics: [{ name: 'p', type: 'boolean' }],
        config: { ...JUDGE_CONFIG, bindings: [{ name: 'a', path: '/secrets', required: true }] },
      },
      'config.bindings.0.path',
    ],
    [
      {
        kind: 'llm_judge',
        metrics: [{ name: 'p', type: 'boolean' }],
        config: { ...JUDGE_CONFIG, maxOutputTokens: 0 },
      },
      'config.maxOutputTokens',
    ],
    [
      {
        kind: 'llm_judge',
        metrics: [{ name: 'p', type: 'boolean' }],
        config: { ...JUDGE_CONFIG, temperature: 3 },
      },
      'config.temperature',
    ],
  ] as Array<[Record<string, unknown>, string, number?]>)(
    'refuses the definition %j, naming %s',
    async (definition, field, status = 400) => {
      const scorerId = await newScorer();
      const res = await api.post<ErrorBody>(`/scorers/${scorerId}/versions`, definition);
      expect(res.status).toBe(status);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.message).toContain(field);
    },
  );

  it('answers 404 for an unknown scorer or version, and 403 for a Read key writing', async () => {
    expect(
      (
        await api.post(`/scorers/${UNKNOWN_ID}/versions`, {
          kind: 'manual',
          metrics: [{ name: 'm', type: 'boolean' }],
        })
      ).status,
    ).toBe(404);
    expect((await api.get(`/scorer-versions/${UNKNOWN_ID}`)).status).toBe(404);
    expect(
      (await api.post('/scorers', { name: 'x', slug: uniqueSlug('x') }, { key: fx.server.keys.read })).status,
    ).toBe(403);
  });
});
