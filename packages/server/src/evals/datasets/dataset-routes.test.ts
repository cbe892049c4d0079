import { describe, expect, it } from 'vitest';
import { useServer } from '../../test-support/server-fixture.js';
import { type ErrorBody, evalRequests, UNKNOWN_ID, uniqueSlug } from '../test-support/eval-requests.js';

const fx = useServer();
const api = evalRequests(fx);

interface Version {
  id: string;
  datasetId: string;
  number: number;
  revision: number;
  frozen: boolean;
  caseCount: number;
  fromVersionId: string | null;
}
interface Case {
  id: string;
  externalKey: string;
  inputs: unknown;
  expected?: unknown;
  metadata?: Record<string, unknown>;
}

async function newDataset(): Promise<string> {
  const res = await api.post<{ id: string }>('/datasets', { name: 'Tickets', slug: uniqueSlug('tickets') });
  expect(res.status).toBe(200);
  return res.body.id;
}

async function newVersion(datasetId: string, fromVersionId?: string): Promise<Version> {
  const res = await api.post<Version>(
    `/datasets/${datasetId}/versions`,
    fromVersionId ? { fromVersionId } : {},
  );
  expect(res.status).toBe(200);
  return res.body;
}

describe('datasets', () => {
  it('creates, reads and lists datasets', async () => {
    const slug = uniqueSlug('support');
    const created = await api.post('/datasets', {
      name: 'Support',
      slug,
      description: 'Tickets from support',
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      name: 'Support',
      slug,
      description: 'Tickets from support',
      latestVersionId: null,
      versionCount: 0,
    });
    const read = await api.get(`/datasets/${created.body.id}`, { key: fx.server.keys.read });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it('refuses a taken slug and invalid identities, naming the field', async () => {
    const slug = uniqueSlug('taken');
    expect((await api.post('/datasets', { name: 'A', slug })).status).toBe(200);
    const again = await api.post<ErrorBody>('/datasets', { name: 'B', slug });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    for (const [body, field] of [
      [{ name: '  ', slug: uniqueSlug('x') }, 'name'],
      [{ name: 'A', slug: 'Not A Slug' }, 'slug'],
      [{ name: 'A' }, 'slug'],
      [{ name: 'A', slug: uniqueSlug('x'), colour: 'red' }, 'colour'],
      [{ name: 'A', slug: uniqueSlug('x'), description: 7 }, 'description'],
    ] as const) {
      const res = await api.post<ErrorBody>('/datasets', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.message).toContain(field);
    }
  });

  it('answers 404 for an unknown ID and 400 for a malformed one', async () => {
    const unknown = await api.get<ErrorBody>(`/datasets/${UNKNOWN_ID}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    const malformed = await api.get<ErrorBody>('/datasets/not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toContain('datasetId');
  });

  it('pages datasets with a cursor and limit 1..100', async () => {
    const ids = [await newDataset(), await newDataset(), await newDataset()];
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const query: string = after === null ? '?limit=2' : `?limit=2&after=${encodeURIComponent(after)}`;
      const page = await api.get<{ items: { id: string }[]; nextCursor: string | null }>(`/datasets${query}`);
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((d) => d.id));
      after = page.body.nextCursor;
    } while (after !== null);
    expect(seen).toEqual(expect.arrayContaining(ids));
    expect(new Set(seen).size).toBe(seen.length);
    for (const query of ['?limit=0', '?limit=101', '?limit=abc', '?limit=1.5', '?after=bogus']) {
      const res = await api.get<ErrorBody>(`/datasets${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.message).toMatch(/limit|after/);
    }
  });
});

describe('dataset versions and cases', () => {
  it('writes cases with optimistic concurrency and keeps omitted expected apart from null', async () => {
    const datasetId = await newDataset();
    const version = await newVersion(datasetId);
    expect(version).toMatchObject({ datasetId, number: 1, revision: 0, frozen: false, caseCount: 0 });

    const first = await api.post<{ item: Case; version: Version }>(`/dataset-versions/${version.id}/cases`, {
      expectedRevision: 0,
      externalKey: 'no-reference',
      inputs: { question: 'hi' },
    });
    expect(first.status).toBe(200);
    expect(first.body.version).toMatchObject({ revision: 1, caseCount: 1 });
    expect('expected' in first.body.item).toBe(false);

    const second = await api.post<{ item: Case; version: Version }>(`/dataset-versions/${version.id}/cases`, {
      expectedRevision: 1,
      externalKey: 'null-reference',
      inputs: null,
      expected: null,
      metadata: { source: 'test' },
    });
    expect(second.status).toBe(200);
    expect(second.body.item).toMatchObject({ inputs: null, expected: null, metadata: { source: 'test' } });
    expect('expected' in second.body.item).toBe(true);

    const stale = await api.post<ErrorBody>(`/dataset-versions/${version.id}/cases`, {
      expectedRevision: 1,
      externalKey: 'late',
      inputs: {},
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('stale_revision');
    expect(stale.body.error.message).toContain('revision 2');

    const cases = await api.get<{ items: Case[] }>(`/dataset-versions/${version.id}/cases`, {
      key: fx.server.keys.read,
    });
    expect(cases.body.items.map((c) => c.externalKey)).toEqual(['no-reference', 'null-reference']);
    expect('expected' in cases.body.items[0]!).toBe(false);
    expect(cases.body.items[1]!.expected).toBeNull();
  });

  it('replaces the case with the same externalKey, keeping its ID and position', async () => {
    const version = await newVersion(await newDataset());
    const path = `/dataset-versions/${version.id}/cases`;
    const a = await api.post<{ item: Case }>(path, {
      expectedRevision: 0,
      externalKey: 'a',
      inputs: 1,
      expected: 1,
    });
    await api.post(path, { expectedRevision: 1, externalKey: 'b', inputs: 2 });
    const replaced = await api.post<{ item: Case; version: Version }>(path, {
      expectedRevision: 2,
      externalKey: 'a',
      inputs: 10,
    });
    expect(replaced.body.item.id).toBe(a.body.item.id);
    expect(replaced.body.item.inputs).toBe(10);
    expect('expected' in replaced.body.item).toBe(false);
    expect(replaced.body.version).toMatchObject({ revision: 3, caseCount: 2 });
    const cases = await api.get<{ items: Case[] }>(path);
    expect(cases.body.items.map((c) => [c.externalKey, c.inputs])).toEqual([
      ['a', 10],
      ['b', 2],
    ]);
  });

  it('refuses invalid case writes, naming the field', async () => {
    const version = await newVersion(await newDataset());
    const path = `/dataset-versions/${version.id}/cases`;
    for (const [body, field] of [
      [{ externalKey: 'k', inputs: {} }, 'expectedRevision'],
      [{ expectedRevision: -1, externalKey: 'k', inputs: {} }, 'expectedRevision'],
      [{ expectedRevision: 0, inputs: {} }, 'externalKey'],
      [{ expectedRevision: 0, externalKey: ' ', inputs: {} }, 'externalKey'],
      [{ expectedRevision: 0, externalKey: 'k' }, 'inputs'],
      [{ expectedRevision: 0, externalKey: 'k', inputs: {}, metadata: [1] }, 'metadata'],
      [{ expectedRevision: 0, externalKey: 'k', inputs: {}, expectedd: 1 }, 'expectedd'],
    ] as const) {
      const res = await api.post<ErrorBody>(path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toContain(field);
    }
    const unknown = await api.post<ErrorBody>(`/dataset-versions/${UNKNOWN_ID}/cases`, {
      expectedRevision: 0,
      externalKey: 'k',
      inputs: {},
    });
    expect(unknown.status).toBe(404);
  });

  it('freezes a version, which then refuses writes; a new version copies its cases', async () => {
    const datasetId = await newDataset();
    const version = await newVersion(datasetId);
    const path = `/dataset-versions/${version.id}/cases`;
    const original = await api.post<{ item: Case }>(path, {
      expectedRevision: 0,
      externalKey: 'a',
      inputs: { q: 1 },
      expected: null,
    });
    const staleFreeze = await api.post<ErrorBody>(`/dataset-versions/${version.id}/freeze`, {
      expectedRevision: 0,
    });
    expect(staleFreeze.status).toBe(409);
    expect(staleFreeze.body.error.code).toBe('stale_revision');
    const frozen = await api.post<Version>(`/dataset-versions/${version.id}/freeze`, { expectedRevision: 1 });
    expect(frozen.status).toBe(200);
    expect(frozen.body).toMatchObject({ frozen: true, revision: 2 });

    const write = await api.post<ErrorBody>(path, { expectedRevision: 2, externalKey: 'b', inputs: {} });
    expect(write.status).toBe(409);
    expect(write.body.error.code).toBe('frozen');
    const refreeze = await api.post<ErrorBody>(`/dataset-versions/${version.id}/freeze`, {
      expectedRevision: 2,
    });
    expect(refreeze.body.error.code).toBe('frozen');

    const next = await newVersion(datasetId, version.id);
    expect(next).toMatchObject({
      number: 2,
      revision: 0,
      frozen: false,
      caseCount: 1,
      fromVersionId: version.id,
    });
    const copied = await api.get<{ items: Case[] }>(`/dataset-versions/${next.id}/cases`);
    expect(copied.body.items).toHaveLength(1);
    expect(copied.body.items[0]).toMatchObject({ externalKey: 'a', inputs: { q: 1 }, expected: null });
    expect(copied.body.items[0]!.id).not.toBe(original.body.item.id);
    const dataset = await api.get(`/datasets/${datasetId}`);
    expect(dataset.body).toMatchObject({ latestVersionId: next.id, versionCount: 2 });

    const otherDataset = await newDataset();
    const foreign = await api.post<ErrorBody>(`/datasets/${otherDataset}/versions`, {
      fromVersionId: version.id,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toContain('fromVersionId');
  });

  it('lists the versions of a dataset oldest first, in pages, with their frozen state', async () => {
    const datasetId = await newDataset();
    const first = await newVersion(datasetId);
    await api.post(`/dataset-versions/${first.id}/freeze`, { expectedRevision: 0 });
    const second = await newVersion(datasetId, first.id);
    const third = await newVersion(datasetId);
    const otherDataset = await newDataset();
    await newVersion(otherDataset);

    const all = await api.get<{ items: Version[]; nextCursor: string | null }>(
      `/datasets/${datasetId}/versions`,
      { key: fx.server.keys.read },
    );
    expect(all.status).toBe(200);
    expect(all.body.items.map((version) => [version.id, version.number, version.frozen])).toEqual([
      [first.id, 1, true],
      [second.id, 2, false],
      [third.id, 3, false],
    ]);
    expect(all.body.nextCursor).toBeNull();

    const page1 = await api.get<{ items: Version[]; nextCursor: string | null }>(
      `/datasets/${datasetId}/versions?limit=2`,
    );
    expect(page1.body.items.map((version) => version.number)).toEqual([1, 2]);
    const page2 = await api.get<{ items: Version[]; nextCursor: string | null }>(
      `/datasets/${datasetId}/versions?limit=2&after=${page1.body.nextCursor}`,
    );
    expect(page2.body.items.map((version) => version.number)).toEqual([3]);
    expect(page2.body.nextCursor).toBeNull();

    const unknown = await api.get<ErrorBody>(`/datasets/${UNKNOWN_ID}/versions`);
    expect(unknown.status).toBe(404);
    const tracing = await api.get<ErrorBody>(`/datasets/${datasetId}/versions`, {
      key: fx.server.keys.tracing,
    });
    expect(tracing.status).toBe(403);
  });

  it('refuses a page over 4 MiB, telling the caller to lower limit', async () => {
    const version = await newVersion(await newDataset());
    const big = 'x'.repeat(1_000_000);
    for (let i = 0; i < 5; i++) {
      const res = await api.post(`/dataset-versions/${version.id}/cases`, {
        expectedRevision: i,
        externalKey: `big-${i}`,
        inputs: big,
      });
      expect(res.status).toBe(200);
    }
    const page = await api.get<ErrorBody>(`/dataset-versions/${version.id}/cases?limit=5`);
    expect(page.status).toBe(422);
    expect(page.body.error.code).toBe('response_too_large');
    expect(page.body.error.message).toContain('limit');
    const small = await api.get<{ items: Case[]; nextCursor: string | null }>(
      `/dataset-versions/${version.id}/cases?limit=1`,
    );
    expect(small.status).toBe(200);
    expect(small.body.items).toHaveLength(1);
    expect(small.body.nextCursor).not.toBeNull();
  });
});

describe('rules shared by every evaluation mutation', () => {
  it('returns the first answer for the same key and body, and 409 for another body', async () => {
    const slug = uniqueSlug('idem');
    const key = `create-${slug}`;
    const first = await api.post('/datasets', { name: 'Idem', slug }, { idempotencyKey: key });
    const replay = await api.post('/datasets', { slug, name: 'Idem' }, { idempotencyKey: key });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const other = await api.post<ErrorBody>('/datasets', { name: 'Other', slug }, { idempotencyKey: key });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('idempotency_key_reused');
    const otherRoute = await api.post<ErrorBody>(
      `/datasets/${String(first.body.id)}/versions`,
      {},
      { idempotencyKey: key },
    );
    expect(otherRoute.status).toBe(409);
    expect(otherRoute.body.error.code).toBe('idempotency_key_reused');
  });

  it('keeps nothing for a failed request, so its key can be reused after fixing it', async () => {
    const key = `fix-${uniqueSlug('k')}`;
    const bad = await api.post('/datasets', { name: 'A', slug: 'BAD SLUG' }, { idempotencyKey: key });
    expect(bad.status).toBe(400);
    const fixed = await api.post(
      '/datasets',
      { name: 'A', slug: uniqueSlug('fixed') },
      { idempotencyKey: key },
    );
    expect(fixed.status).toBe(200);
  });

  it('requires an Idempotency-Key header on mutations', async () => {
    for (const idempotencyKey of [null, '', 'has space', 'x'.repeat(256)]) {
      const res = await api.post<ErrorBody>(
        '/datasets',
        { name: 'A', slug: uniqueSlug('nokey') },
        { idempotencyKey },
      );
      expect(res.status, String(idempotencyKey)).toBe(400);
      expect(res.body.error.message).toContain('Idempotency-Key');
    }
  });

  it('answers 413 past 1 MiB, 415 for a body that is not JSON, 400 for malformed JSON', async () => {
    const big = await api.post<ErrorBody>('/datasets', {
      name: 'A',
      slug: uniqueSlug('big'),
      description: 'x'.repeat(1024 * 1024),
    });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('payload_too_large');
    const text = await fx.request('/api/v1/evals/datasets', {
      method: 'POST',
      key: fx.server.keys.readWrite,
      headers: { 'content-type': 'text/plain', 'idempotency-key': 'text-body' },
      body: 'hello',
    });
    expect(text.status).toBe(415);
    const malformed = await api.post<ErrorBody>('/datasets', '{"name": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toContain('not valid JSON');
  });

  it('needs a Read-and-write key to write and a Read or Read-and-write key to read', async () => {
    const body = { name: 'A', slug: uniqueSlug('keys') };
    for (const key of [fx.server.keys.read, fx.server.keys.tracing, fx.server.keys.setup]) {
      const res = await api.post<ErrorBody>('/datasets', body, { key });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
    for (const key of [fx.server.keys.tracing, fx.server.keys.setup]) {
      expect((await api.get('/datasets', { key })).status).toBe(403);
    }
    expect((await api.get('/datasets', { key: fx.server.keys.read })).status).toBe(200);
    expect((await api.get('/datasets', { key: 'svc_rw_notAKey' })).status).toBe(401);
  });
});
