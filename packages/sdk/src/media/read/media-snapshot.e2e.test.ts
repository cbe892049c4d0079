/**
 * Reading the files of an evaluation trace snapshot against the real reference server: a file is
 * uploaded into a trace through the documented routes and listed by an OTLP JSON span, an
 * experiment execution over that trace is completed with `traceEvidence: 'required'` through the
 * evaluation client, and the snapshot's copy of the file is read with `media.fetch` and
 * `media.resolve` (`snapshotId`).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { MediaFetchError, type MediaFetchErrorReason } from '../../errors/media-fetch-error.js';
import { createEvaluationClient } from '../../evals/client/evaluation-client.js';
import { sha256Hex } from '../scan/test-support.js';
import {
  blobEntry,
  exportSpan,
  newSpanId,
  newTraceId,
  uploadFile,
  useMediaServer,
} from './__fixtures__/media-server.js';
import { createMediaReader } from './media-reader.js';

const server = useMediaServer();

function reader(key: string = server().keys.readWrite) {
  return createMediaReader({ apiKey: key, baseUrl: server().origin, timeoutMillis: 60_000 });
}

/** The MediaFetchError `promise` rejects with; checks its message shows no key and no link. */
async function failure(promise: Promise<unknown>, reason: MediaFetchErrorReason): Promise<MediaFetchError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!MediaFetchError.isInstance(error))
    throw new Error(`expected a MediaFetchError, got ${inspect(error)}`);
  expect(error.reason).toBe(reason);
  const shown = `${error.message} ${inspect(error, { depth: 10, showHidden: true })}`;
  for (const key of Object.values(server().keys)) expect(shown).not.toContain(key);
  expect(shown).not.toMatch(/signature=|expires=/i);
  return error;
}

/**
 * Runs one case of a new experiment over the trace `traceId` through the evaluation client and
 * completes it with trace evidence; returns the trace snapshot's ID.
 */
async function completeWithTraceEvidence(traceId: string): Promise<string> {
  const client = createEvaluationClient({
    apiKey: server().keys.readWrite,
    baseUrl: server().origin,
    timeoutMillis: 60_000,
  });
  const dataset = await client.createDataset({ name: 'Images', slug: `images-${randomUUID().slice(0, 8)}` });
  const version = await client.createDatasetVersion(dataset.id);
  const written = await client.addCase(version.id, {
    expectedRevision: version.revision,
    externalKey: 'describe-the-chart',
    inputs: { question: 'What does the chart show?' },
    expected: 'growth',
  });
  await client.freezeDatasetVersion(version.id, written.version.revision);
  const scorer = await client.createScorer({ name: 'Exact', slug: `exact-${randomUUID().slice(0, 8)}` });
  const scorerVersion = await client.publishScorerVersion(scorer.id, {
    kind: 'builtin',
    builtin: 'exact_match',
    metrics: [{ name: 'exact_match', type: 'boolean' }],
  });
  const experiment = await client.createExperiment({
    idempotencyKey: client.newIdempotencyKey(),
    name: 'Snapshot files',
    datasetVersionId: version.id,
    scorerVersionIds: [scorerVersion.id],
    config: {},
  });
  const execution = await client.startExecution(experiment.id, written.item.id, {
    idempotencyKey: client.newIdempotencyKey(),
    traceExternalId: traceId,
  });
  const completion = await client.completeExecution(execution.id, {
    idempotencyKey: client.newIdempotencyKey(),
    state: 'succeeded',
    output: 'growth',
    traceEvidence: 'required',
  });
  expect(completion.traceSnapshotId).toMatch(/^[0-9a-f-]{36}$/);
  return completion.traceSnapshotId!;
}

describe('media.fetch and media.resolve with snapshotId on the reference server', () => {
  const traceId = newTraceId();
  const spanId = newSpanId();
  const chart = randomBytes(20_000);
  const chartSha = sha256Hex(chart);
  const neverUploaded = randomBytes(1_000);
  const unlisted = randomBytes(2_000);
  const key = 'gen_ai.input.messages#/0/parts/1';
  let snapshotId = '';

  beforeAll(async () => {
    await uploadFile(server(), traceId, chart, 'image/png', key);
    // Uploaded under the trace, but no span lists it.
    await uploadFile(server(), traceId, unlisted, 'application/pdf', 'input.value#');
    await exportSpan(server(), traceId, spanId, {
      'svc.blobs': [
        blobEntry(key, chart, 'image/png', 'chart.png'),
        blobEntry('gen_ai.input.messages#/0/parts/2', neverUploaded, 'image/jpeg'),
      ],
    });
    snapshotId = await completeWithTraceEvidence(traceId);
  });

  it('reads the bytes of a file the snapshot lists with a Read and write key, with or without spanId', async () => {
    const bytes = await reader().fetch({ snapshotId, sha256: chartSha });
    expect(Buffer.from(bytes).equals(chart)).toBe(true);
    expect(sha256Hex(bytes)).toBe(chartSha);
    const scoped = await reader().fetch({ snapshotId, sha256: chartSha, spanId });
    expect(Buffer.from(scoped).equals(chart)).toBe(true);
  });

  it('forbidden: a Read key (or a Tracing key) cannot read snapshot copies, though the Read key reads the trace', async () => {
    const read = await failure(
      reader(server().keys.read).fetch({ snapshotId, sha256: chartSha }),
      'forbidden',
    );
    expect(read.status).toBe(403);
    expect(read.message).toMatch(/snapshot copies of files need a Read and write key/);
    const tracing = await failure(
      reader(server().keys.tracing).fetch({ snapshotId, sha256: chartSha }),
      'forbidden',
    );
    expect(tracing.status).toBe(403);
    const fromTrace = await reader(server().keys.read).fetch({ traceId, sha256: chartSha });
    expect(Buffer.from(fromTrace).equals(chart)).toBe(true);
  });

  it('not_found: a digest the snapshot does not list, even one its trace holds; an unknown snapshot', async () => {
    const error = await failure(
      reader().fetch({ snapshotId, sha256: sha256Hex(randomBytes(8)) }),
      'not_found',
    );
    expect(error.status).toBe(404);
    expect(error.message).toMatch(/check snapshotId, sha256 and spanId/);
    await failure(reader().fetch({ snapshotId, sha256: sha256Hex(unlisted) }), 'not_found');
    expect((await reader().fetch({ traceId, sha256: sha256Hex(unlisted) })).length).toBe(unlisted.length);
    await failure(reader().fetch({ snapshotId: randomUUID(), sha256: chartSha }), 'not_found');
  });

  it('missing: the snapshot lists a file whose bytes were never uploaded', async () => {
    const error = await failure(reader().fetch({ snapshotId, sha256: sha256Hex(neverUploaded) }), 'missing');
    expect(error.status).toBe(404);
    expect(error.message).toMatch(/trace snapshot lists this file but its bytes were never uploaded/);
  });

  it('keeps to the snapshot: a span written to the trace afterwards adds no file to it', async () => {
    const later = randomBytes(500);
    await uploadFile(server(), traceId, later, 'image/png', 'output.value#');
    await exportSpan(server(), traceId, newSpanId(), {
      'svc.blobs': [blobEntry('output.value#', later, 'image/png')],
    });
    expect((await reader().fetch({ traceId, sha256: sha256Hex(later) })).length).toBe(later.length);
    await failure(reader().fetch({ snapshotId, sha256: sha256Hex(later) }), 'not_found');
    expect(Buffer.from(await reader().fetch({ snapshotId, sha256: chartSha })).equals(chart)).toBe(true);
  });

  it('resolves a recorded value from the snapshot: listed files in place, the others in failures', async () => {
    const recorded = [
      {
        role: 'user',
        parts: [
          { type: 'text', content: 'What does the chart show?' },
          { type: 'blob', mime_type: 'image/png', modality: 'image', sha256: chartSha, size: chart.length },
          {
            type: 'blob',
            mime_type: 'image/jpeg',
            modality: 'image',
            sha256: sha256Hex(neverUploaded),
            size: neverUploaded.length,
          },
        ],
      },
    ];
    const blobs = [
      blobEntry(key, chart, 'image/png', 'chart.png'),
      blobEntry('gen_ai.input.messages#/0/parts/2', neverUploaded, 'image/jpeg'),
    ];
    const { value, failures } = await reader().resolve(recorded, { snapshotId, spanId, blobs });
    expect(failures).toEqual([
      { pointer: '/0/parts/2', sha256: sha256Hex(neverUploaded), reason: 'missing' },
    ]);
    const parts = (value as typeof recorded)[0]!.parts as Record<string, unknown>[];
    expect(parts[1]).toEqual({
      type: 'blob',
      mime_type: 'image/png',
      modality: 'image',
      content: chart.toString('base64'),
    });
    expect(parts[2]).toEqual(recorded[0]!.parts[2]);
    // A Read key gets every file back as forbidden, without the call failing.
    const refused = await reader(server().keys.read).resolve(recorded, { snapshotId, blobs });
    expect(refused.failures.map((f) => f.reason)).toEqual(['forbidden', 'forbidden']);
  });
});
