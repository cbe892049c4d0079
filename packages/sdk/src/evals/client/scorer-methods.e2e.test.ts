import { describe, expect, it } from 'vitest';
import type { ScorerDefinition } from '../scorers/scorer-definitions.js';
import { expectApiError, UNKNOWN_ID, uniqueSlug, useEvalServer } from './__fixtures__/eval-server.js';

const evals = useEvalServer();
const DIGEST = `sha256:${'b'.repeat(64)}`;

describe('evaluation client: scorers', () => {
  it('creates, reads and lists scorers', async () => {
    const scorer = await evals.client.createScorer({
      name: 'Tone',
      slug: uniqueSlug('tone'),
      description: 'Politeness',
    });
    expect(scorer).toMatchObject({ description: 'Politeness', latestVersionId: null, versionCount: 0 });
    expect(await evals.reader.getScorer(scorer.id)).toEqual(scorer);
    const page = await evals.reader.listScorers({ limit: 100 });
    expect(page.items.map((s) => s.id)).toContain(scorer.id);
    await expectApiError(evals.client.createScorer({ name: 'Again', slug: scorer.slug }), 409, 'conflict');
  });

  it('publishes immutable versions of every kind and reads them back', async () => {
    const scorer = await evals.client.createScorer({ name: 'All kinds', slug: uniqueSlug('kinds') });
    const definitions: ScorerDefinition[] = [
      { kind: 'builtin', builtin: 'exact_match', metrics: [{ name: 'exact_match', type: 'boolean' }] },
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
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          required: ['answer'],
        },
        metrics: [{ name: 'json_schema', type: 'boolean' }],
      },
      {
        kind: 'local_code',
        language: 'typescript',
        entrypoint: 'scorers/tone.ts#score',
        sourceDigest: DIGEST,
        metrics: [
          { name: 'tone', type: 'category', categories: ['polite', 'neutral', 'rude'] },
          { name: 'confidence', type: 'number', min: 0, max: 1 },
        ],
      },
      {
        kind: 'manual',
        metrics: [
          { name: 'approved', type: 'boolean' },
          { name: 'note', type: 'text' },
        ],
      },
      {
        kind: 'llm_judge',
        metrics: [{ name: 'polite', type: 'boolean' }],
        config: {
          model: 'judge-1',
          provider: 'mock',
          rubric: 'Is the answer polite?',
          bindings: [{ name: 'answer', path: '/output', required: true }],
          maxOutputTokens: 200,
          timeoutMs: 5_000,
          temperature: 0.2,
        },
      },
    ];
    const versions = [];
    for (const definition of definitions)
      versions.push(await evals.client.publishScorerVersion(scorer.id, definition));
    expect(versions.map((v) => v.number)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(versions.map((version) => version.definition)).toEqual(definitions);
    expect(await evals.reader.getScorerVersion(versions[3]!.id)).toEqual(versions[3]);
    expect(await evals.reader.getScorer(scorer.id)).toMatchObject({
      latestVersionId: versions[5]!.id,
      versionCount: 6,
    });
  });

  it('refuses invalid definitions and metric definitions: 400 against the schema, 422 for rules beyond it', async () => {
    const scorer = await evals.client.createScorer({ name: 'Bad', slug: uniqueSlug('bad') });
    const bad: Array<[unknown, number]> = [
      [{ kind: 'manual', metrics: [{ name: 'm', type: 'number', min: 5, max: 1 }] }, 422],
      [{ kind: 'manual', metrics: [{ name: 'm', type: 'category', categories: [] }] }, 400],
      [
        {
          kind: 'manual',
          metrics: [
            { name: 'm', type: 'boolean' },
            { name: 'm', type: 'boolean' },
          ],
        },
        422,
      ],
      [
        {
          kind: 'builtin',
          builtin: 'json_schema',
          schema: { type: 'strng' },
          metrics: [{ name: 'json_schema', type: 'boolean' }],
        },
        422,
      ],
      [
        {
          kind: 'local_code',
          language: 'typescript',
          entrypoint: 'x',
          sourceDigest: 'nope',
          metrics: [{ name: 'm', type: 'boolean' }],
        },
        400,
      ],
      [{ kind: 'llm_judge', metrics: [{ name: 'p', type: 'boolean' }], config: { provider: 'mock' } }, 400],
    ];
    for (const [definition, status] of bad) {
      await expectApiError(
        evals.client.publishScorerVersion(scorer.id, definition as ScorerDefinition),
        status,
        'invalid_request',
      );
    }
    expect((await evals.client.getScorer(scorer.id)).versionCount).toBe(0);
  });

  it('answers unknown IDs with 404 and a Read key writing with 403', async () => {
    await expectApiError(evals.client.getScorer(UNKNOWN_ID), 404, 'not_found');
    await expectApiError(evals.client.getScorerVersion(UNKNOWN_ID), 404, 'not_found');
    await expectApiError(
      evals.client.publishScorerVersion(UNKNOWN_ID, {
        kind: 'manual',
        metrics: [{ name: 'm', type: 'boolean' }],
      }),
      404,
      'not_found',
    );
    await expectApiError(evals.reader.createScorer({ name: 'x', slug: uniqueSlug('x') }), 403, 'forbidden');
    await expectApiError(evals.tracer.listScorers(), 403, 'forbidden');
  });

  it('returns the first version for a reused key and body; another body is 409', async () => {
    const scorer = await evals.client.createScorer({ name: 'Idem', slug: uniqueSlug('idem') });
    const idempotencyKey = evals.client.newIdempotencyKey();
    const definition: ScorerDefinition = { kind: 'manual', metrics: [{ name: 'ok', type: 'boolean' }] };
    const first = await evals.client.publishScorerVersion(scorer.id, definition, { idempotencyKey });
    expect(await evals.client.publishScorerVersion(scorer.id, definition, { idempotencyKey })).toEqual(first);
    expect((await evals.client.getScorer(scorer.id)).versionCount).toBe(1);
    await expectApiError(
      evals.client.publishScorerVersion(
        scorer.id,
        { kind: 'manual', metrics: [{ name: 'other', type: 'text' }] },
        { idempotencyKey },
      ),
      409,
      'idempotency_key_reused',
    );
  });

  it('checks arguments before sending', async () => {
    await expect(evals.client.getScorer(undefined as never)).rejects.toThrow(/^id must be a nonempty string/);
    await expect(evals.client.publishScorerVersion('x', 'manual' as never)).rejects.toThrow(
      /definition must be an object/,
    );
  });
});
