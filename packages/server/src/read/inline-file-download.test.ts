import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { call, ingest, sha256Of } from '../test-support/media-fixtures.js';
import {
  jsonSpan,
  logsRequest,
  newSpanId,
  newTraceId,
  str,
  tracesRequest,
} from '../test-support/otlp-fixtures.js';
import { useServer } from '../test-support/server-fixture.js';

// Spec, the blob download route: `spanId` "limits the read to that span and its correlated logs
// (…needed to find a file held inline by a log record or in a format read later than recording)".
const fx = useServer();
const dot = readFileSync(new URL('../../../../fixtures/media/dot.png', import.meta.url));
const cat = readFileSync(new URL('../../../../fixtures/media/cat.png', import.meta.url));

async function link(traceId: string, sha256: string, spanId?: string, key = fx.server.keys.read) {
  const query = spanId === undefined ? '' : `?spanId=${spanId}`;
  const res = await call(fx.server, `/api/v1/traces/${traceId}/blobs/${sha256}${query}`, { key });
  return {
    status: res.status,
    body: (await res.json()) as {
      url: string;
      size: number;
      contentType: string;
      name: string | null;
      error?: { code: string };
    },
  };
}

/** A span as a plain OpenTelemetry exporter sends it: the image inline, no svc.blobs. */
async function inlineTrace() {
  const traceId = newTraceId();
  const spanId = newSpanId();
  const input = [
    {
      role: 'user',
      parts: [{ type: 'blob', modality: 'image', mime_type: 'image/png', content: dot.toString('base64') }],
    },
  ];
  await ingest(
    fx.server,
    'traces',
    tracesRequest([
      jsonSpan(traceId, { spanId, attributes: [str('gen_ai.input.messages', JSON.stringify(input))] }),
    ]),
  );
  return { traceId, spanId };
}

describe('files held inline by a record, through the download route with spanId', () => {
  it('links and serves the bytes of an image a span holds inline', async () => {
    const { traceId, spanId } = await inlineTrace();
    const answer = await link(traceId, sha256Of(dot), spanId);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ sha256: sha256Of(dot), size: dot.length, contentType: 'image/png' });
    const file = await fetch(answer.body.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(sha256Of(new Uint8Array(await file.arrayBuffer()))).toBe(sha256Of(dot));
  });

  it('finds a file a correlated log record holds inline in its body', async () => {
    const traceId = newTraceId();
    const spanId = newSpanId();
    await ingest(fx.server, 'traces', tracesRequest([jsonSpan(traceId, { spanId })]));
    await ingest(
      fx.server,
      'logs',
      logsRequest([
        {
          traceId,
          spanId,
          timeUnixNano: '1763740800500000000',
          eventName: 'gen_ai.user.message',
          body: {
            kvlistValue: {
              values: [
                {
                  key: 'content',
                  value: {
                    arrayValue: {
                      values: [
                        {
                          kvlistValue: {
                            values: [
                              str('type', 'image_url'),
                              {
                                key: 'image_url',
                                value: {
                                  kvlistValue: {
                                    values: [str('url', `data:image/png;base64,${cat.toString('base64')}`)],
                                  },
                                },
                              },
                            ],
                          },
                        },
                      ],
                    },
                  },
                },
              ],
            },
          },
        },
      ]),
    );
    const answer = await link(traceId, sha256Of(cat), spanId);
    expect(answer.status).toBe(200);
    const file = await fetch(answer.body.url);
    expect(sha256Of(new Uint8Array(await file.arrayBuffer()))).toBe(sha256Of(cat));
  });

  it('does not find an inline file without spanId, nor under another span, nor another digest', async () => {
    const { traceId, spanId } = await inlineTrace();
    expect((await link(traceId, sha256Of(dot))).body.error?.code).toBe('not_found');
    expect((await link(traceId, sha256Of(dot), newSpanId())).status).toBe(404);
    expect((await link(traceId, sha256Of(cat), spanId)).status).toBe(404);
  });

  it('signs the span into the link: another span in the URL is refused', async () => {
    const { traceId, spanId } = await inlineTrace();
    const { body } = await link(traceId, sha256Of(dot), spanId);
    const tampered = new URL(body.url);
    tampered.searchParams.set('spanId', newSpanId());
    expect((await fetch(tampered)).status).toBe(403);
  });

  it('answers Read and Read-and-write keys only', async () => {
    const { traceId, spanId } = await inlineTrace();
    expect((await link(traceId, sha256Of(dot), spanId, fx.server.keys.tracing)).status).toBe(403);
  });
});
