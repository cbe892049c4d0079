import { describe, expect, it } from 'vitest';
import { SvcApiError } from '../../errors/svc-api-error.js';
import { expectApiError, UNKNOWN_ID, uniqueSlug, useEvalServer } from './__fixtures__/eval-server.js';
import { createEvaluationClient } from './evaluation-client.js';

const evals = useEvalServer();

describe('evaluation client: connection', () => {
  it('checks the connection with a Read-and-write or a Read key', async () => {
    const project = await evals.client.checkConnection();
    expect(project).toEqual(evals.server.project);
    expect(await evals.reader.checkConnection()).toEqual(project);
  });

  it('reports a refused key with status 401 and without the key', async () => {
    const key = 'svc_rw_notAKeyOfThisProject0000000000000000000000';
    const client = createEvaluationClient({
      apiKey: key,
      baseUrl: evals.server.origin,
      timeoutMillis: 60_000,
    });
    const error = await expectApiError(client.checkConnection(), 401, 'unauthorized', [key]);
    expect(error.message).toContain('API key');
  });

  it('reports an unreachable service without a status', async () => {
    const client = createEvaluationClient({
      apiKey: 'svc_rw_x',
      baseUrl: 'http://127.0.0.1:1',
      timeoutMillis: 60_000,
    });
    const error = await client.checkConnection().catch((caught: unknown) => caught);
    expect(SvcApiError.isInstance(error)).toBe(true);
    expect((error as SvcApiError).status).toBeUndefined();
    expect((error as SvcApiError).message).toContain('could not reach');
  });
});

describe('evaluation client: datasets', () => {
  it('creates, reads and pages datasets', async () => {
    const slugs = [uniqueSlug('a'), uniqueSlug('b'), uniqueSlug('c')];
    const created = [];
    for (const slug of slugs) created.push(await evals.client.createDataset({ name: `Set ${slug}`, slug }));
    expect(created[0]).toMatchObject({ slug: slugs[0], latestVersionId: null, versionCount: 0 });
    expect(await evals.reader.getDataset(created[1]!.id)).toEqual(created[1]);
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await evals.reader.listDatasets({ limit: 1, ...(after ? { after } : {}) });
      expect(page.items.length).toBeLessThanOrEqual(1);
      seen.push(...page.items.map((d) => d.id));
      if (page.nextCursor === null) break;
      after = page.nextCursor;
    }
    expect(seen).toEqual(expect.arrayContaining(created.map((d) => d.id)));
  });

  it('writes cases, keeping an omitted expected apart from null, and freezes versions', async () => {
    const dataset = await evals.client.createDataset({ name: 'Cases', slug: uniqueSlug('cases') });
    const version = await evals.client.createDatasetVersion(dataset.id);
    expect(version).toMatchObject({ datasetId: dataset.id, number: 1, revision: 0, frozen: false });
    const first = await evals.client.addCase(version.id, {
      expectedRevision: version.revision,
      externalKey: 'no-reference',
      inputs: { question: 'Where is my order?' },
    });
    expect('expected' in first.item).toBe(false);
    const second = await evals.client.addCase(version.id, {
      expectedRevision: first.version.revision,
      externalKey: 'null-reference',
      inputs: { question: 'Refund?' },
      expected: null,
      metadata: { tier: 'gold' },
    });
    expect(second.item).toMatchObject({ expected: null, metadata: { tier: 'gold' } });
    const cases = await evals.reader.listCases(version.id, { limit: 100 });
    expect(cases.items.map((c) => c.externalKey)).toEqual(['no-reference', 'null-reference']);
    expect('expected' in cases.items[0]!).toBe(false);
    expect(cases.items[1]!.expected).toBeNull();

    const frozen = await evals.client.freezeDatasetVersion(version.id, second.version.revision);
    expect(frozen).toMatchObject({ frozen: true, caseCount: 2 });
    expect(await evals.reader.getDatasetVersion(version.id)).toEqual(frozen);
    const next = await evals.client.createDatasetVersion(dataset.id, { fromVersionId: version.id });
    expect(next).toMatchObject({ number: 2, caseCount: 2, frozen: false, fromVersionId: version.id });
    const versions = await evals.reader.listDatasetVersions(dataset.id, { limit: 1 });
    expect(versions.items).toEqual([frozen]);
    const rest = await evals.reader.listDatasetVersions(dataset.id, { after: versions.nextCursor! });
    expect(rest).toEqual({ items: [next], nextCursor: null });
  });

  it('refuses a stale revision (409 stale_revision) and a frozen version (409 frozen)', async () => {
    const dataset = await evals.client.createDataset({ name: 'Rules', slug: uniqueSlug('rules') });
    const version = await evals.client.createDatasetVersion(dataset.id);
    const written = await evals.client.addCase(version.id, {
      expectedRevision: 0,
      externalKey: 'a',
      inputs: 1,
    });
    const stale = await expectApiError(
      evals.client.addCase(version.id, { expectedRevision: 0, externalKey: 'b', inputs: 2 }),
      409,
      'stale_revision',
    );
    expect(stale.message).toContain('expectedRevision is stale');
    expect(stale.message).not.toContain('the version is at revision'); // the server's own words are not echoed
    await evals.client.freezeDatasetVersion(version.id, written.version.revision);
    await expectApiError(
      evals.client.addCase(version.id, {
        expectedRevision: written.version.revision + 1,
        externalKey: 'b',
        inputs: 2,
      }),
      409,
      'frozen',
    );
    await expectApiError(
      evals.client.freezeDatasetVersion(version.id, written.version.revision + 1),
      409,
      'frozen',
    );
  });

  it('answers unknown IDs with 404 and invalid input with 400', async () => {
    await expectApiError(evals.client.getDataset(UNKNOWN_ID), 404, 'not_found');
    await expectApiError(evals.client.getDatasetVersion(UNKNOWN_ID), 404, 'not_found');
    await expectApiError(evals.client.listCases(UNKNOWN_ID), 404, 'not_found');
    await expectApiError(evals.client.createDatasetVersion(UNKNOWN_ID), 404, 'not_found');
    await expectApiError(
      evals.client.addCase(UNKNOWN_ID, { expectedRevision: 0, externalKey: 'a', inputs: 1 }),
      404,
      'not_found',
    );
    await expectApiError(evals.client.getDataset('not-a-uuid'), 400, 'invalid_request');
    await expectApiError(
      evals.client.createDataset({ name: 'x', slug: 'Not A Slug' }),
      400,
      'invalid_request',
    );
    const taken = uniqueSlug('taken');
    await evals.client.createDataset({ name: 'x', slug: taken });
    await expectApiError(evals.client.createDataset({ name: 'y', slug: taken }), 409, 'conflict');
  });

  it('returns the first answer for a reused key and body, and refuses the key with another body', async () => {
    const idempotencyKey = evals.client.newIdempotencyKey();
    const slug = uniqueSlug('idem');
    const first = await evals.client.createDataset({ name: 'Idem', slug }, { idempotencyKey });
    expect(await evals.client.createDataset({ name: 'Idem', slug }, { idempotencyKey })).toEqual(first);
    await expectApiError(
      evals.client.createDataset({ name: 'Other', slug: uniqueSlug('other') }, { idempotencyKey }),
      409,
      'idempotency_key_reused',
    );
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const dataset = await evals.client.createDataset({ name: 'Big', slug: uniqueSlug('big') });
    const version = await evals.client.createDatasetVersion(dataset.id);
    const error = await expectApiError(
      evals.client.addCase(version.id, {
        expectedRevision: 0,
        externalKey: 'big',
        inputs: 'x'.repeat(1024 * 1024),
      }),
      413,
      'payload_too_large',
    );
    expect(error.message).toContain('1 MiB');
  });

  it('refuses a page over 4 MiB; limit 1 reads it', async () => {
    const dataset = await evals.client.createDataset({ name: 'Huge', slug: uniqueSlug('huge') });
    const version = await evals.client.createDatasetVersion(dataset.id);
    let revision = version.revision;
    for (let i = 0; i < 5; i++) {
      revision = (
        await evals.client.addCase(version.id, {
          expectedRevision: revision,
          externalKey: `c${i}`,
          inputs: 'y'.repeat(1_000_000),
        })
      ).version.revision;
    }
    const error = await expectApiError(
      evals.reader.listCases(version.id, { limit: 5 }),
      422,
      'response_too_large',
    );
    expect(error.message).toContain('limit 1');
    const page = await evals.reader.listCases(version.id, { limit: 1 });
    expect(page.items).toHaveLength(1);
    expect(page.nextCursor).not.toBeNull();
  });

  it('needs a Read-and-write key to write and a Read key to read', async () => {
    const slug = uniqueSlug('keys');
    await expectApiError(evals.reader.createDataset({ name: 'x', slug }), 403, 'forbidden', [
      evals.server.keys.read,
    ]);
    await expectApiError(evals.tracer.createDataset({ name: 'x', slug }), 403, 'forbidden');
    await expectApiError(evals.tracer.listDatasets(), 403, 'forbidden');
    expect((await evals.reader.listDatasets()).items).toBeInstanceOf(Array);
  });

  it('checks IDs and page options before sending (TypeError naming the argument)', async () => {
    await expect(evals.client.getDataset('')).rejects.toThrow(/^id must be a nonempty string/);
    await expect(evals.client.listDatasets({ limit: 0 })).rejects.toThrow(
      /page\.limit must be an integer from 1 to 100; got 0/,
    );
    await expect(evals.client.listDatasets({ limit: 101 })).rejects.toThrow(TypeError);
    await expect(evals.client.listDatasets({ after: '' })).rejects.toThrow(/page\.after/);
    await expect(evals.client.createDataset(null as never)).rejects.toThrow(
      /identity must be an object; got null/,
    );
    await expect(
      evals.client.createDataset({ name: 'x', slug: uniqueSlug('k') }, { idempotencyKey: 'has space' }),
    ).rejects.toThrow(/options\.idempotencyKey must be 1 to 255 visible ASCII characters/);
  });
});
