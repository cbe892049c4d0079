import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectApiError, UNKNOWN_ID, uniqueSlug, useEvalServer } from './__fixtures__/eval-server.js';

const evals = useEvalServer();
const directory = mkdtempSync(join(tmpdir(), 'svc-case-files-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function openVersion() {
  const dataset = await evals.client.createDataset({ name: 'Documents', slug: uniqueSlug('docs') });
  return evals.client.createDatasetVersion(dataset.id);
}

/** Stores `bytes` in a new trace, listed by a span under `name`, through the media routes. */
async function fileInTrace(bytes: Uint8Array, name: string): Promise<string> {
  const traceId = randomBytes(16).toString('hex');
  const key = evals.server.keys.readWrite;
  const post = (path: string, body: unknown) =>
    fetch(`${evals.server.origin}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const entry = {
    key: 'gen_ai.input.messages#/0/parts/0',
    sha256: sha256(bytes),
    size: bytes.length,
    content_type: 'application/pdf',
    name,
  };
  const span = {
    traceId,
    spanId: randomBytes(8).toString('hex'),
    name: 'upload',
    kind: 1,
    startTimeUnixNano: '1763740800000000000',
    endTimeUnixNano: '1763740801000000000',
    attributes: [
      { key: 'svc.blobs', value: { arrayValue: { values: [{ stringValue: JSON.stringify(entry) }] } } },
    ],
  };
  expect(
    (
      await post('/api/v1/otlp/v1/traces', {
        resourceSpans: [{ resource: {}, scopeSpans: [{ scope: {}, spans: [span] }] }],
      })
    ).status,
  ).toBe(200);
  const reserved = (await (
    await post('/api/v1/otlp/blobs', {
      traceId,
      sha256: entry.sha256,
      byteSize: bytes.length,
      contentType: entry.content_type,
      key: entry.key,
    })
  ).json()) as { url: string; headers: Record<string, string> };
  // fetch sets Content-Length itself
  const headers = Object.fromEntries(
    Object.entries(reserved.headers).filter(([name]) => name.toLowerCase() !== 'content-length'),
  );
  expect((await fetch(reserved.url, { method: 'PUT', headers, body: bytes })).status).toBe(201);
  expect((await post('/api/v1/otlp/blobs/complete', { traceId, sha256: entry.sha256 })).status).toBe(200);
  return traceId;
}

describe('evaluation client: case files', () => {
  it('uploads files given as bytes, base64 or a path, pins them and downloads them back', async () => {
    const version = await openVersion();
    const pdf = new TextEncoder().encode(`%PDF-1.7 contract ${Math.random()}`);
    const template = randomBytes(300_000);
    const path = join(directory, 'notes.txt');
    const notes = new TextEncoder().encode('reviewer notes');
    writeFileSync(path, notes);
    const written = await evals.client.addCase(version.id, {
      expectedRevision: version.revision,
      externalKey: 'contract',
      inputs: { task: 'review' },
      files: [
        { role: 'source', name: 'contract.pdf', contentType: 'application/pdf', data: pdf },
        {
          role: 'attached_template',
          name: 'template.bin',
          contentType: 'application/octet-stream',
          data: template.toString('base64'),
        },
        { role: 'evaluator_reference', name: 'notes.txt', contentType: 'text/plain', path },
      ],
    });
    expect(written.item.files.map((f) => [f.role, f.name, f.sha256, f.size])).toEqual([
      ['source', 'contract.pdf', sha256(pdf), pdf.length],
      ['attached_template', 'template.bin', sha256(template), template.length],
      ['evaluator_reference', 'notes.txt', sha256(notes), notes.length],
    ]);
    expect(written.item.files.every((f) => f.artifactId !== null)).toBe(true);
    expect(await evals.reader.downloadCaseFile(written.item.id, sha256(pdf))).toEqual(pdf);
    expect(Buffer.from(await evals.reader.downloadCaseFile(written.item.id, sha256(template)))).toEqual(
      template,
    );
    await expectApiError(evals.reader.downloadCaseFile(written.item.id, '0'.repeat(64)), 404, 'not_found');
    await expectApiError(evals.tracer.downloadCaseFile(written.item.id, sha256(pdf)), 403, 'forbidden');
  });

  it('returns the first answer when a write with files is retried with its key', async () => {
    const version = await openVersion();
    const idempotencyKey = evals.client.newIdempotencyKey();
    const write = {
      expectedRevision: version.revision,
      externalKey: 'retry',
      inputs: {},
      files: [
        {
          role: 'source' as const,
          name: 'a.txt',
          contentType: 'text/plain',
          data: new TextEncoder().encode('same bytes'),
        },
      ],
    };
    const first = await evals.client.addCase(version.id, write, { idempotencyKey });
    expect(await evals.client.addCase(version.id, write, { idempotencyKey })).toEqual(first);
    expect((await evals.client.getDatasetVersion(version.id)).revision).toBe(version.revision + 1);
  });

  it('copies a file a trace holds', async () => {
    const bytes = new TextEncoder().encode(`traced document ${Math.random()}`);
    const traceId = await fileInTrace(bytes, 'invoice.pdf');
    const version = await openVersion();
    const written = await evals.client.addCase(version.id, {
      expectedRevision: version.revision,
      externalKey: 'from-trace',
      inputs: {},
      files: [{ role: 'original', trace: { traceId, sha256: sha256(bytes) } }],
    });
    expect(written.item.files[0]).toMatchObject({
      name: 'invoice.pdf',
      contentType: 'application/pdf',
      sourceTraceId: traceId,
      artifactId: null,
    });
    expect(await evals.client.downloadCaseFile(written.item.id, sha256(bytes))).toEqual(bytes);
    await expectApiError(
      evals.client.addCase(version.id, {
        expectedRevision: written.version.revision,
        externalKey: 'unknown-file',
        inputs: {},
        files: [{ role: 'original', name: 'x.pdf', trace: { traceId, sha256: '2'.repeat(64) } }],
      }),
      404,
      'not_found',
    );
  });

  it('writes eval-set cases and refuses them without a file the agent sees', async () => {
    const version = await openVersion();
    const brief = {
      name: 'brief.md',
      contentType: 'text/markdown',
      data: new TextEncoder().encode('# Brief'),
    };
    await expectApiError(
      evals.client.addEvalSetCase(version.id, {
        expectedRevision: version.revision,
        externalKey: 'a',
        files: [{ role: 'org_template', ...brief }],
      }),
      422, // "a file the agent sees": a rule the JSON Schema does not state
      'invalid_request',
    );
    const written = await evals.client.addEvalSetCase(version.id, {
      expectedRevision: version.revision,
      externalKey: 'a',
      files: [{ role: 'source', ...brief }],
    });
    expect(written.item).toMatchObject({
      kind: 'eval_set',
      inputs: {},
      files: [{ role: 'source', name: 'brief.md' }],
    });
  });

  it('refuses bad files: too many, too large, unreadable, unknown artifacts', async () => {
    const version = await openVersion();
    const base = { expectedRevision: version.revision, externalKey: 'bad', inputs: {} };
    const tiny = { contentType: 'text/plain', data: 'aGk=' };
    await expectApiError(
      evals.client.addCase(version.id, {
        ...base,
        files: Array.from({ length: 33 }, (_, i) => ({ role: 'source' as const, name: `f${i}`, ...tiny })),
      }),
      400,
      'invalid_request',
    );
    await expect(
      evals.client.addCase(version.id, {
        ...base,
        files: [
          {
            role: 'source',
            name: 'big.bin',
            contentType: 'application/octet-stream',
            data: new Uint8Array(25 * 1024 * 1024 + 1),
          },
        ],
      }),
    ).rejects.toThrow(/^files\[0\]\.data must be 1 byte to 25 MiB/);
    await expect(
      evals.client.addCase(version.id, {
        ...base,
        files: [
          { role: 'source', name: 'gone.txt', contentType: 'text/plain', path: join(directory, 'nope') },
        ],
      }),
    ).rejects.toThrow(/^files\[0\]\.path cannot be read \(ENOENT\)/);
    await expectApiError(
      evals.client.addCase(version.id, { ...base, files: [{ role: 'source', artifactId: UNKNOWN_ID }] }),
      404,
      'not_found',
    );
    expect((await evals.client.getDatasetVersion(version.id)).caseCount).toBe(0);
  });
});
