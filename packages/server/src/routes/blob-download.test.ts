import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../start-server.js';
import { serviceTraceId } from '../store/service-trace-id.js';
import {
  blobPath,
  blobsAttribute,
  call,
  downloadLink,
  entryOf,
  errorOf,
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
let expiring: RunningServer;
beforeAll(async () => {
  [server, expiring] = await Promise.all([startServer(), startServer({ downloadLinkTtlMillis: 0 })]);
});
afterAll(async () => {
  await Promise.all([server.close(), expiring.close()]);
});

interface Link {
  url: string;
  name: string | null;
  sha256: string;
  size: number;
  contentType: string;
  expiresAt: string;
}

describe('the download-link route and the signed download', () => {
  it('returns a link that downloads the bytes without a key, with type, length and file name', async () => {
    const traceId = newTraceId();
    const bytes = randomBytes(3000);
    const sha256 = sha256Of(bytes);
    await upload(server, traceId, bytes);
    await ingest(
      server,
      'traces',
      tracesRequest([
        jsonSpan(traceId, { attributes: [blobsAttribute([entryOf(bytes, { name: 'chart (v2).png' })])] }),
      ]),
    );
    const before = Date.now();
    const res = await downloadLink(server, traceId, sha256);
    expect(res.status).toBe(200);
    const link = (await res.json()) as Link;
    expect(link).toEqual({
      url: expect.stringMatching(new RegExp(`^${server.origin}/api/v1/blobs/downloads/${sha256}\\?`)),
      name: 'chart (v2).png',
      sha256,
      size: 3000,
      contentType: 'image/png',
      expiresAt: expect.any(String),
    });
    expect(Date.parse(link.expiresAt) - before).toBeGreaterThanOrEqual(5 * 60 * 1000);
    expect(Date.parse(link.expiresAt) - Date.now()).toBeLessThanOrEqual(5 * 60 * 1000);

    const file = await call(server, link.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('content-length')).toBe('3000');
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="chart (v2).png"; filename*=UTF-8''chart%20%28v2%29.png`,
    );
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(bytes);
  });

  it('accepts the service trace ID (UUID) as well as the 32-hex trace ID', async () => {
    const traceId = newTraceId();
    const bytes = randomBytes(10);
    await upload(server, traceId, bytes);
    const res = await downloadLink(server, serviceTraceId(traceId), sha256Of(bytes));
    expect(res.status).toBe(200);
    const link = (await res.json()) as Link;
    expect(link.name).toBeNull();
    const file = await call(server, link.url);
    expect(file.headers.get('content-disposition')).toBe('attachment');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(bytes);
  });

  it('needs a Read or Read-and-write key: tracing and setup keys get 403, no key 401', async () => {
    const traceId = newTraceId();
    const bytes = randomBytes(10);
    const sha256 = sha256Of(bytes);
    await upload(server, traceId, bytes);
    expect((await downloadLink(server, traceId, sha256, { key: server.keys.read })).status).toBe(200);
    expect((await downloadLink(server, traceId, sha256, { key: server.keys.readWrite })).status).toBe(200);
    for (const key of [server.keys.tracing, server.keys.setup]) {
      const res = await downloadLink(server, traceId, sha256, { key });
      const error = await errorOf(res);
      expect(error).toMatchObject({ status: 403, code: 'forbidden' });
      expect(error.message).not.toContain(key);
    }
    const anonymous = await call(server, `/api/v1/traces/${traceId}/blobs/${sha256}`);
    expect(await errorOf(anonymous)).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('tells missing (listed, never uploaded) from not_found (not listed), in span attributes, events and logs', async () => {
    const traceId = newTraceId();
    const spanId = newSpanId();
    const [inAttribute, inEvent, inLog, nowhere] = [
      randomBytes(20),
      randomBytes(21),
      randomBytes(22),
      randomBytes(23),
    ];
    await ingest(
      server,
      'traces',
      tracesRequest([
        jsonSpan(traceId, {
          spanId,
          attributes: [blobsAttribute([entryOf(inAttribute)])],
          events: [fileEvent(inEvent)],
        }),
      ]),
    );
    await ingest(
      server,
      'logs',
      logsRequest([
        {
          timeUnixNano: '1763740800600000000',
          traceId,
          spanId,
          body: { stringValue: 'details' },
          attributes: [blobsAttribute([entryOf(inLog, { key: 'body#/input/0/content/1' })])],
        },
      ]),
    );
    for (const bytes of [inAttribute, inEvent, inLog]) {
      expect(await errorOf(await downloadLink(server, traceId, sha256Of(bytes)))).toMatchObject({
        status: 404,
        code: 'missing',
      });
      expect(await errorOf(await downloadLink(server, traceId, sha256Of(bytes), { spanId }))).toMatchObject({
        status: 404,
        code: 'missing',
      });
    }
    expect(await errorOf(await downloadLink(server, traceId, sha256Of(nowhere)))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
    // Limited to another span, nothing lists it.
    expect(
      await errorOf(await downloadLink(server, traceId, sha256Of(inAttribute), { spanId: newSpanId() })),
    ).toMatchObject({ status: 404, code: 'not_found' });
    // A file of another trace is not this trace's file.
    const other = newTraceId();
    await upload(server, other, nowhere);
    expect((await downloadLink(server, traceId, sha256Of(nowhere))).status).toBe(404);
  });

  it('names the file from a svc.file event or a log entry, and spanId limits where the name is read', async () => {
    const traceId = newTraceId();
    const [first, second] = [newSpanId(), newSpanId()];
    const bytes = randomBytes(40);
    await upload(server, traceId, bytes);
    await ingest(
      server,
      'traces',
      tracesRequest([
        jsonSpan(traceId, { spanId: first, events: [fileEvent(bytes, { name: 'report.pdf' })] }),
        jsonSpan(traceId, { spanId: second, startTimeUnixNano: '1763740800100000000' }),
      ]),
    );
    await ingest(
      server,
      'logs',
      logsRequest([
        {
          timeUnixNano: '1763740800600000000',
          traceId,
          spanId: second,
          attributes: [blobsAttribute([entryOf(bytes, { key: 'body#/0', name: 'from-log.pdf' })])],
        },
      ]),
    );
    const named = async (spanId?: string) =>
      (
        (await (
          await downloadLink(server, traceId, sha256Of(bytes), spanId ? { spanId } : {})
        ).json()) as Link
      ).name;
    expect(await named(first)).toBe('report.pdf');
    expect(await named(second)).toBe('from-log.pdf');
    expect(await named()).toBe('report.pdf');
    expect(await named(newSpanId())).toBeNull();
  });

  it('ignores unparsable and invalid svc.blobs entries and invalid names', async () => {
    const traceId = newTraceId();
    const bytes = randomBytes(40);
    await upload(server, traceId, bytes);
    await ingest(
      server,
      'traces',
      tracesRequest([
        jsonSpan(traceId, {
          attributes: [
            blobsAttribute([
              '{not json',
              JSON.stringify({ ...entryOf(bytes), sha256: 'xyz', name: 'wrong.png' }),
              entryOf(bytes, { name: 'bad\u0007name.png' }),
            ]),
          ],
        }),
      ]),
    );
    expect(((await (await downloadLink(server, traceId, sha256Of(bytes))).json()) as Link).name).toBeNull();
  });

  it('validates the trace ID, digest and span ID', async () => {
    const sha256 = sha256Of('x');
    for (const path of [
      `/api/v1/traces/nope/blobs/${sha256}`,
      `/api/v1/traces/${'0'.repeat(32)}/blobs/${sha256}`,
      `/api/v1/traces/${newTraceId()}/blobs/${sha256.toUpperCase()}`,
      `/api/v1/traces/${newTraceId()}/blobs/${sha256}?spanId=xyz`,
    ]) {
      expect(await errorOf(await call(server, path, { key: server.keys.read }))).toMatchObject({
        status: 400,
        code: 'invalid_request',
      });
    }
  });

  it('answers 503 unavailable when the stored bytes cannot be read', async () => {
    const traceId = newTraceId();
    const bytes = randomBytes(64);
    await upload(server, traceId, bytes);
    const link = (await (await downloadLink(server, traceId, sha256Of(bytes))).json()) as Link;
    rmSync(blobPath(server, sha256Of(bytes)));
    expect(await errorOf(await downloadLink(server, traceId, sha256Of(bytes)))).toMatchObject({
      status: 503,
      code: 'unavailable',
    });
    expect(await errorOf(await call(server, link.url))).toMatchObject({ status: 503, code: 'unavailable' });
    // Uploading the bytes again repairs the file.
    await upload(server, traceId, bytes);
    expect((await call(server, link.url)).status).toBe(200);
  });

  it('refuses expired and tampered download links', async () => {
    const traceId = newTraceId();
    const bytes = randomBytes(10);
    await upload(expiring, traceId, bytes);
    const expired = (await (await downloadLink(expiring, traceId, sha256Of(bytes))).json()) as Link;
    expect(await errorOf(await call(expiring, expired.url))).toMatchObject({
      status: 403,
      code: 'link_expired',
    });

    await upload(server, traceId, bytes);
    const other = newTraceId();
    const link = (await (await downloadLink(server, traceId, sha256Of(bytes))).json()) as Link;
    const tampered = [
      link.url.replace(/signature=[\w-]+/, `signature=${'A'.repeat(43)}`),
      link.url.replace(traceId, other),
      `${link.url}&name=evil.html`.replace(/&signature=[\w-]+/, '') + link.url.match(/&signature=[\w-]+/)![0],
      link.url.replace(/expires=\d+/, 'expires=99999999999999'),
      link.url.replace(`/downloads/${sha256Of(bytes)}`, `/downloads/${sha256Of('other')}`),
    ];
    for (const url of tampered) {
      expect(await errorOf(await call(server, url))).toMatchObject({ status: 403, code: 'forbidden' });
    }
    expect((await call(server, link.url)).status).toBe(200);
  });
});
