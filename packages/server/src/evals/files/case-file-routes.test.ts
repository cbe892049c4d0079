import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { blobsAttribute, entryOf, upload } from '../../test-support/media-fixtures.js';
import { jsonSpan, newTraceId, tracesRequest } from '../../test-support/otlp-fixtures.js';
import { type ServerFixture, useServer } from '../../test-support/server-fixture.js';
import { type ErrorBody, evalRequests, UNKNOWN_ID, uniqueSlug } from '../test-support/eval-requests.js';

const fx = useServer();
const expired = useServer({ uploadLinkTtlMillis: 0, downloadLinkTtlMillis: 0 });
const api = evalRequests(fx);

interface Pinned {
  role: string;
  name: string;
  contentType: string;
  sha256: string;
  size: number;
  artifactId: string | null;
  sourceTraceId: string | null;
}
interface Written {
  item: { id: string; kind: string; inputs: unknown; files: Pinned[] };
  version: { id: string; revision: number };
}
interface Created {
  artifact: { id: string; state: string; sha256: string };
  upload: { url: string; method: string; headers: Record<string, string>; expiresAt: string } | null;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const PDF = new TextEncoder().encode('%PDF-1.7 a small contract (case-file-marker)');

async function openVersion(requests = api): Promise<{ id: string; revision: number }> {
  const dataset = await requests.post<{ id: string }>('/datasets', {
    name: 'Docs',
    slug: uniqueSlug('docs'),
  });
  return (await requests.post<{ id: string; revision: number }>(`/datasets/${dataset.body.id}/versions`, {}))
    .body;
}

/** An in-process request to an absolute link the server returned. */
function follow(fixture: ServerFixture, url: string, init: RequestInit = {}) {
  const { pathname, search } = new URL(url);
  return fixture.request(`${pathname}${search}`, init);
}

function putBytes(fixture: ServerFixture, created: Created, bytes: Uint8Array) {
  return follow(fixture, created.upload!.url, {
    method: 'PUT',
    headers: created.upload!.headers,
    body: bytes,
  });
}

function createArtifact(bytes: Uint8Array, name = 'contract.pdf', requests = api) {
  return requests.post<Created & ErrorBody>('/artifacts', {
    sha256: sha256(bytes),
    size: bytes.length,
    contentType: 'application/pdf',
    name,
  });
}

describe('case files', () => {
  it('pins inline bytes, lists them with the case and serves them through a signed link', async () => {
    const version = await openVersion();
    const written = await api.post<Written>(`/dataset-versions/${version.id}/cases`, {
      expectedRevision: 0,
      externalKey: 'contract',
      inputs: { task: 'summarize' },
      files: [
        {
          role: 'source',
          name: 'contract.pdf',
          contentType: 'application/pdf',
          data: Buffer.from(PDF).toString('base64'),
        },
      ],
    });
    expect(written.status).toBe(200);
    expect(written.body.item.files).toEqual([
      {
        role: 'source',
        name: 'contract.pdf',
        contentType: 'application/pdf',
        sha256: sha256(PDF),
        size: PDF.length,
        artifactId: null,
        sourceTraceId: null,
      },
    ]);
    const link = await api.get<{ url: string; name: string; size: number; expiresAt: string }>(
      `/cases/${written.body.item.id}/files/${sha256(PDF)}`,
      { key: fx.server.keys.read },
    );
    expect(link.body).toMatchObject({ name: 'contract.pdf', size: PDF.length });
    const download = await follow(fx, link.body.url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-disposition')).toContain('contract.pdf');
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(PDF);
    const tampered = link.body.url.replace(/signature=[^&]+/, `signature=${'A'.repeat(43)}`);
    expect((await follow(fx, tampered)).status).toBe(403);
    expect(
      (await api.get(`/cases/${written.body.item.id}/files/${sha256(PDF)}`, { key: fx.server.keys.tracing }))
        .status,
    ).toBe(403);
    expect((await api.get(`/cases/${written.body.item.id}/files/${'0'.repeat(64)}`)).status).toBe(404);
    expect((await api.get(`/cases/${UNKNOWN_ID}/files/${sha256(PDF)}`)).status).toBe(404);
  });

  it('uploads an artifact through its signed link, then pins it', async () => {
    const bytes = new TextEncoder().encode(`artifact bytes ${Math.random()}`);
    const created = await createArtifact(bytes);
    expect(created.status).toBe(200);
    expect(created.body.artifact.state).toBe('pending');
    expect(created.body.upload).toMatchObject({
      method: 'PUT',
      headers: { 'content-type': 'application/pdf', 'content-length': String(bytes.length) },
    });
    const version = await openVersion();
    const pending = await api.post<ErrorBody>(`/dataset-versions/${version.id}/cases`, {
      expectedRevision: 0,
      externalKey: 'a',
      inputs: {},
      files: [{ role: 'attached_reference', artifactId: created.body.artifact.id }],
    });
    expect(pending.status).toBe(409);
    expect(pending.body.error.message).toContain('not uploaded yet');
    const stored = await putBytes(fx, created.body, bytes);
    expect(stored.status).toBe(201);
    expect((await putBytes(fx, created.body, bytes)).status).toBe(412);
    const written = await api.post<Written>(`/dataset-versions/${version.id}/cases`, {
      expectedRevision: 0,
      externalKey: 'a',
      inputs: {},
      files: [{ role: 'attached_reference', artifactId: created.body.artifact.id, name: 'renamed.pdf' }],
    });
    expect(written.status).toBe(200);
    expect(written.body.item.files[0]).toMatchObject({
      name: 'renamed.pdf',
      artifactId: created.body.artifact.id,
      sha256: sha256(bytes),
    });
    const again = await createArtifact(bytes, 'copy.pdf');
    expect(again.body.artifact.state).toBe('stored');
    expect(again.body.upload).toBeNull();
  });

  it('refuses upload bodies that are not the declared file, and links that are not genuine or expired', async () => {
    const bytes = new TextEncoder().encode(`declared ${Math.random()}`);
    const created = await createArtifact(bytes);
    const other = new TextEncoder().encode('x'.repeat(bytes.length));
    const wrong = await putBytes(fx, created.body, other);
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as ErrorBody).error.code).toBe('digest_mismatch');
    const short = await follow(fx, created.body.upload!.url, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf', 'content-length': '3' },
      body: bytes.slice(0, 3),
    });
    expect(short.status).toBe(400);
    expect(((await short.json()) as ErrorBody).error.code).toBe('size_mismatch');
    const forged = await follow(
      fx,
      created.body.upload!.url.replace(/signature=[^&]+/, `signature=${'B'.repeat(43)}`),
      {
        method: 'PUT',
        headers: created.body.upload!.headers,
        body: bytes,
      },
    );
    expect(forged.status).toBe(403);
    expect((await api.get<{ state: string }>(`/cases/${UNKNOWN_ID}/files/${sha256(bytes)}`)).status).toBe(
      404,
    );

    const late = evalRequests(expired);
    const lateArtifact = await createArtifact(bytes, 'late.pdf', late);
    const refused = await putBytes(expired, lateArtifact.body, bytes);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as ErrorBody).error.code).toBe('link_expired');
    const version = await openVersion(late);
    const written = await late.post<Written>(`/dataset-versions/${version.id}/cases`, {
      expectedRevision: 0,
      externalKey: 'k',
      inputs: {},
      files: [
        {
          role: 'source',
          name: 'a.txt',
          contentType: 'text/plain',
          data: Buffer.from('hello').toString('base64'),
        },
      ],
    });
    const link = await late.get<{ url: string }>(
      `/cases/${written.body.item.id}/files/${sha256(new TextEncoder().encode('hello'))}`,
    );
    const gone = await follow(expired, link.body.url);
    expect(gone.status).toBe(403);
    expect(((await gone.json()) as ErrorBody).error.code).toBe('link_expired');
  });

  it('copies a file a trace holds, by 32-hex or service trace ID', async () => {
    const traceId = newTraceId();
    const image = new TextEncoder().encode(`png bytes ${Math.random()}`);
    await fx.postJson(
      '/api/v1/otlp/v1/traces',
      tracesRequest([
        jsonSpan(traceId, { attributes: [blobsAttribute([entryOf(image, { name: 'screenshot.png' })])] }),
      ]),
    );
    await upload(fx.server, traceId, image);
    const version = await openVersion();
    const serviceId = `${traceId.slice(0, 8)}-${traceId.slice(8, 12)}-${traceId.slice(12, 16)}-${traceId.slice(16, 20)}-${traceId.slice(20)}`;
    const written = await api.post<Written>(`/dataset-versions/${version.id}/cases`, {
      expectedRevision: 0,
      externalKey: 'from-trace',
      inputs: {},
      files: [
        { role: 'original', trace: { traceId, sha256: sha256(image) } },
        {
          role: 'evaluator_reference',
          name: 'reference.png',
          trace: { traceId: serviceId, sha256: sha256(image) },
        },
      ],
    });
    expect(written.status).toBe(200);
    expect(written.body.item.files).toEqual([
      {
        role: 'original',
        name: 'screenshot.png',
        contentType: 'image/png',
        sha256: sha256(image),
        size: image.length,
        artifactId: null,
        sourceTraceId: traceId,
      },
      {
        role: 'evaluator_reference',
        name: 'reference.png',
        contentType: 'image/png',
        sha256: sha256(image),
        size: image.length,
        artifactId: null,
        sourceTraceId: traceId,
      },
    ]);
    const missing = await api.post<ErrorBody>(`/dataset-versions/${version.id}/cases`, {
      expectedRevision: written.body.version.revision,
      externalKey: 'missing',
      inputs: {},
      files: [{ role: 'source', name: 'x.png', trace: { traceId, sha256: '1'.repeat(64) } }],
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toContain('files.0.trace');
  });

  it.each([
    [
      '33 files',
      Array.from({ length: 33 }, (_, i) => ({
        role: 'source',
        name: `f${i}.txt`,
        contentType: 'text/plain',
        data: 'aGk=',
      })),
      'files',
    ],
    [
      'a repeated name in a role',
      [0, 1].map(() => ({ role: 'source', name: 'same.txt', contentType: 'text/plain', data: 'aGk=' })),
      'files.1.name',
      422, // unique (role, name): a rule beyond the JSON Schema
    ],
    ['an unknown role', [{ role: 'secret', name: 'a.txt', contentType: 'text/plain', data: 'aGk=' }], 'role'],
    [
      'a path as name',
      [{ role: 'source', name: '../a.txt', contentType: 'text/plain', data: 'aGk=' }],
      'name',
      422, // the file-name rule is stated in prose: JSON Schema's pattern does not carry it
    ],
    [
      'a 256-unit name',
      [{ role: 'source', name: 'n'.repeat(256), contentType: 'text/plain', data: 'aGk=' }],
      'name',
    ],
    [
      'a bad content type',
      [{ role: 'source', name: 'a.txt', contentType: 'text', data: 'aGk=' }],
      'contentType',
    ],
    ['empty data', [{ role: 'source', name: 'a.txt', contentType: 'text/plain', data: '' }], 'data'],
    ['an unknown artifact', [{ role: 'source', artifactId: UNKNOWN_ID }], 'files.0.artifactId'],
  ] as Array<[string, unknown[], string, number?]>)('refuses %s', async (_what, files, field, status) => {
    const version = await openVersion();
    const res = await api.post<ErrorBody>(`/dataset-versions/${version.id}/cases`, {
      expectedRevision: 0,
      externalKey: 'k',
      inputs: {},
      files,
    });
    if (status === undefined) expect([400, 404]).toContain(res.status);
    else expect(res.status).toBe(status);
    expect(res.body.error.message).toContain(field);
    expect((await api.get<{ caseCount: number }>(`/dataset-versions/${version.id}`)).body.caseCount).toBe(0);
  });

  it('writes eval-set cases: files the agent sees are required, inputs default to {}', async () => {
    const version = await openVersion();
    const path = `/dataset-versions/${version.id}/eval-set-cases`;
    const file = {
      name: 'brief.txt',
      contentType: 'text/plain',
      data: Buffer.from('the brief').toString('base64'),
    };
    const none = await api.post<ErrorBody>(path, { expectedRevision: 0, externalKey: 'a' });
    expect(none.status).toBe(400); // files are required by the schema
    expect(none.body.error.message).toContain('files');
    const evaluatorOnly = await api.post<ErrorBody>(path, {
      expectedRevision: 0,
      externalKey: 'a',
      files: [{ role: 'org_template', ...file }],
    });
    expect(evaluatorOnly.status).toBe(422); // "a file the agent sees": a rule the schema does not state
    expect(evaluatorOnly.body.error.message).toContain('role the agent sees');
    const written = await api.post<Written>(path, {
      expectedRevision: 0,
      externalKey: 'a',
      files: [{ role: 'source', ...file }],
    });
    expect(written.status).toBe(200);
    expect(written.body.item).toMatchObject({ kind: 'eval_set', inputs: {} });
    const dataset = await api.get<{ datasetId: string }>(`/dataset-versions/${version.id}`);
    const copy = await api.post<{ id: string }>(`/datasets/${dataset.body.datasetId}/versions`, {
      fromVersionId: version.id,
    });
    const cases = await api.get<{ items: { kind: string; files: Pinned[] }[] }>(
      `/dataset-versions/${copy.body.id}/cases`,
    );
    expect(cases.body.items[0]).toMatchObject({
      kind: 'eval_set',
      files: [{ role: 'source', name: 'brief.txt' }],
    });
  });
});
