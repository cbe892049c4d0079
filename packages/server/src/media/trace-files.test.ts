import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../start-server.js';
import {
  blobPath,
  blobsAttribute,
  entryOf,
  fileEvent,
  ingest,
  sha256Of,
  upload,
} from '../test-support/media-fixtures.js';
import {
  jsonSpan,
  logsRequest,
  newSpanId,
  newTraceId,
  tracesRequest,
} from '../test-support/otlp-fixtures.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

function spanListing(
  traceId: string,
  spanId: string,
  bytes: Uint8Array[],
  events: ReturnType<typeof fileEvent>[] = [],
) {
  return tracesRequest([
    jsonSpan(traceId, {
      spanId,
      attributes: [
        blobsAttribute(bytes.map((b, i) => entryOf(b, { key: `gen_ai.input.messages#/0/parts/${i}` }))),
      ],
      events,
    }),
  ]);
}

async function states(traceId: string, spanId: string) {
  return (await server.files.fileStates(traceId, spanId)).map((f) => [f.key, f.state]);
}

describe('file states of a span', () => {
  it('a span exported before its upload: not uploaded, then stored', async () => {
    const [traceId, spanId] = [newTraceId(), newSpanId()];
    const image = randomBytes(500);
    await ingest(server, 'traces', spanListing(traceId, spanId, [image]));
    expect(await states(traceId, spanId)).toEqual([['gen_ai.input.messages#/0/parts/0', 'not uploaded']]);
    await upload(server, traceId, image);
    expect(await server.files.fileStates(traceId, spanId)).toEqual([
      {
        key: 'gen_ai.input.messages#/0/parts/0',
        sha256: sha256Of(image),
        size: 500,
        contentType: 'image/png',
        name: null,
        role: null,
        spanId,
        record: 'span',
        listed: true,
        state: 'stored',
      },
    ]);
  });

  it('an upload before its span: stored as soon as the span arrives', async () => {
    const [traceId, spanId] = [newTraceId(), newSpanId()];
    const image = randomBytes(500);
    await upload(server, traceId, image);
    expect(await states(traceId, spanId)).toEqual([]);
    await ingest(server, 'traces', spanListing(traceId, spanId, [image]));
    expect(await states(traceId, spanId)).toEqual([['gen_ai.input.messages#/0/parts/0', 'stored']]);
  });

  it('a file uploaded under another trace is not uploaded for this one', async () => {
    const [traceId, spanId] = [newTraceId(), newSpanId()];
    const image = randomBytes(100);
    await upload(server, newTraceId(), image);
    await ingest(server, 'traces', spanListing(traceId, spanId, [image]));
    expect(await states(traceId, spanId)).toEqual([['gen_ai.input.messages#/0/parts/0', 'not uploaded']]);
  });

  it('lists entries, svc.file events and correlated log entries; an event and its entry are one file', async () => {
    const [traceId, spanId, otherSpan] = [newTraceId(), newSpanId(), newSpanId()];
    const [image, uploadedPdf, recordedOnly, logged, elsewhere] = [
      randomBytes(10),
      randomBytes(11),
      randomBytes(12),
      randomBytes(13),
      randomBytes(14),
    ];
    await upload(server, traceId, image);
    await upload(server, traceId, uploadedPdf);
    await upload(server, traceId, logged);
    await ingest(
      server,
      'traces',
      tracesRequest([
        jsonSpan(traceId, {
          spanId,
          attributes: [
            blobsAttribute([
              entryOf(image, { name: 'cat.png' }),
              entryOf(uploadedPdf, {
                key: `event:svc.file:${sha256Of(uploadedPdf)}`,
                content_type: 'application/pdf',
              }),
            ]),
          ],
          events: [
            fileEvent(uploadedPdf, { role: 'attachment', name: 'contract.pdf' }),
            fileEvent(recordedOnly, { role: 'output', mediaType: 'text/csv' }),
          ],
        }),
        jsonSpan(traceId, { spanId: otherSpan, attributes: [blobsAttribute([entryOf(elsewhere)])] }),
      ]),
    );
    await ingest(
      server,
      'logs',
      logsRequest([
        {
          timeUnixNano: '1763740800700000000',
          traceId,
          spanId,
          attributes: [
            blobsAttribute([entryOf(logged, { key: 'body#/output/0/content/0', content_type: 'audio/wav' })]),
          ],
        },
      ]),
    );
    const files = await server.files.fileStates(traceId, spanId);
    expect(files.map((f) => [f.key, f.record, f.role, f.name, f.listed, f.state])).toEqual([
      ['gen_ai.input.messages#/0/parts/1', 'span', null, 'cat.png', true, 'stored'],
      [`event:svc.file:${sha256Of(uploadedPdf)}`, 'span', 'attachment', 'contract.pdf', true, 'stored'],
      [`event:svc.file:${sha256Of(recordedOnly)}`, 'span', 'output', null, false, 'not uploaded'],
      ['body#/output/0/content/0', 'log', null, null, true, 'stored'],
    ]);
    expect(files[2]).toMatchObject({ contentType: 'text/csv', size: 12 });
    expect(files[3]).toMatchObject({ logTimeUnixNano: '1763740800700000000', contentType: 'audio/wav' });
    expect(await states(traceId, otherSpan)).toEqual([['gen_ai.input.messages#/0/parts/1', 'not uploaded']]);
  });

  it('a stored file whose bytes are gone or unreadable on disk is unavailable', async () => {
    const [traceId, spanId] = [newTraceId(), newSpanId()];
    const [deleted, truncated, fine] = [randomBytes(40), randomBytes(41), randomBytes(42)];
    for (const bytes of [deleted, truncated, fine]) await upload(server, traceId, bytes);
    await ingest(server, 'traces', spanListing(traceId, spanId, [deleted, truncated, fine]));
    rmSync(blobPath(server, sha256Of(deleted)));
    writeFileSync(blobPath(server, sha256Of(truncated)), truncated.subarray(0, 20));
    expect(await states(traceId, spanId)).toEqual([
      ['gen_ai.input.messages#/0/parts/0', 'unavailable'],
      ['gen_ai.input.messages#/0/parts/1', 'unavailable'],
      ['gen_ai.input.messages#/0/parts/2', 'stored'],
    ]);
    // A new upload of the same bytes repairs the stored file.
    await upload(server, traceId, deleted);
    expect((await states(traceId, spanId))[0]).toEqual(['gen_ai.input.messages#/0/parts/0', 'stored']);
  });

  it('a stored file that storage cannot read as a file is unavailable', async () => {
    const [traceId, spanId] = [newTraceId(), newSpanId()];
    const bytes = randomBytes(30);
    await upload(server, traceId, bytes);
    await ingest(server, 'traces', spanListing(traceId, spanId, [bytes]));
    const path = blobPath(server, sha256Of(bytes));
    rmSync(path);
    mkdirSync(path);
    try {
      expect(await states(traceId, spanId)).toEqual([['gen_ai.input.messages#/0/parts/0', 'unavailable']]);
    } finally {
      rmSync(path, { recursive: true });
    }
  });

  it('reads at most 64 entries of a record, one per key, ignoring invalid ones', async () => {
    const [traceId, spanId] = [newTraceId(), newSpanId()];
    const files = Array.from({ length: 70 }, () => randomBytes(4));
    const entries = [
      'not json',
      JSON.stringify({ key: 'x#', sha256: 'zz', size: 1, content_type: 'image/png' }),
      JSON.stringify({ key: 'y#', sha256: sha256Of(files[0]!), size: -1, content_type: 'image/png' }),
      entryOf(files[0]!, { key: 'dup#' }),
      entryOf(files[1]!, { key: 'dup#' }),
      ...files.slice(2).map((f, i) => entryOf(f, { key: `k${i}#` })),
    ];
    await ingest(
      server,
      'traces',
      tracesRequest([jsonSpan(traceId, { spanId, attributes: [blobsAttribute(entries)] })]),
    );
    const listed = await server.files.fileStates(traceId, spanId);
    // 64 entries read: 3 invalid, 1 duplicate key, 60 files.
    expect(listed).toHaveLength(60);
    expect(listed[0]).toMatchObject({ key: 'dup#', sha256: sha256Of(files[0]!) });
    expect(listed.at(-1)).toMatchObject({ key: 'k58#' });
  });

  it('is empty for a span that lists no files or does not exist', async () => {
    const [traceId, spanId] = [newTraceId(), newSpanId()];
    await ingest(server, 'traces', tracesRequest([jsonSpan(traceId, { spanId })]));
    expect(await states(traceId, spanId)).toEqual([]);
    expect(await states(traceId, newSpanId())).toEqual([]);
  });
});
