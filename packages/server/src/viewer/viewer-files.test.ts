import { readFileSync, rmSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  blobPath,
  blobsAttribute,
  entryOf,
  fileEvent,
  ingest,
  sha256Of,
  upload,
} from '../test-support/media-fixtures.js';
import { jsonSpan, newSpanId, newTraceId, str, tracesRequest } from '../test-support/otlp-fixtures.js';
import { useServer } from '../test-support/server-fixture.js';
import { logIn, viewerGet } from '../test-support/viewer-fixtures.js';

const fx = useServer();
const media = (name: string) => readFileSync(new URL(`../../../../fixtures/media/${name}`, import.meta.url));
const cat = media('cat.png');
const dot = media('dot.png');
const pcm = media('tone-24k.pcm');
const pdf = media('report.pdf');
const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const html = Buffer.from('<!doctype html><script>alert(1)</script>');
const js = Buffer.from('alert(1)');
const xml = Buffer.from('<?xml version="1.0"?><a/>');
/** 16-bit big-endian samples (audio/L16, RFC 2586), stereo, 3 frames. */
const l16 = Buffer.from([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c]);
const inlineDot = Buffer.concat([media('dot.png'), Buffer.from('never uploaded')]);

const t = { traceId: '', spanId: '', other: '', cookie: '' };

const STORED: [string, Buffer, string][] = [
  ['cat.png', cat, 'image/png'],
  ['report.pdf', pdf, 'application/pdf'],
  ['tone.pcm', pcm, 'audio/pcm;rate=24000;channels=1'],
  ['drawing.svg', svg, 'image/svg+xml'],
  ['page.html', html, 'text/html'],
  ['code.js', js, 'text/javascript'],
  ['data.xml', xml, 'application/xml'],
  ['stereo.l16', l16, 'audio/L16;rate=8000;channels=2'],
  ['gone.png', dot, 'image/png'],
];

beforeAll(async () => {
  t.traceId = newTraceId();
  t.spanId = newSpanId();
  t.other = newTraceId();
  for (const [, bytes, contentType] of STORED) {
    await upload(fx.server, t.traceId, bytes, { key: `event:svc.file:${sha256Of(bytes)}`, contentType });
  }
  const input = [
    {
      role: 'user',
      parts: [
        { type: 'blob', modality: 'image', mime_type: 'image/png', content: inlineDot.toString('base64') },
      ],
    },
  ];
  await ingest(
    fx.server,
    'traces',
    tracesRequest([
      jsonSpan(t.traceId, {
        spanId: t.spanId,
        attributes: [
          str('gen_ai.input.messages', JSON.stringify(input)),
          blobsAttribute(
            STORED.map(([name, bytes, contentType]) =>
              entryOf(bytes, { key: `event:svc.file:${sha256Of(bytes)}`, content_type: contentType, name }),
            ),
          ),
        ],
        events: STORED.map(([name, bytes, contentType]) =>
          fileEvent(bytes, { mediaType: contentType, name }),
        ),
      }),
      jsonSpan(t.other, { spanId: newSpanId() }),
    ]),
  );
  rmSync(blobPath(fx.server, sha256Of(dot)));
  t.cookie = await logIn(fx.server);
});

function file(sha256: string, query = `?span=${t.spanId}`, traceId = t.traceId) {
  return viewerGet(fx.server, `/traces/${traceId}/files/${sha256}${query}`, t.cookie);
}

function expectBytesHeaders(res: Response) {
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
  expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
}

describe('viewer file bytes', () => {
  it('serves a stored image inline with nosniff and a sandbox CSP', async () => {
    const res = await file(sha256Of(cat));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toBe(
      `inline; filename="cat.png"; filename*=UTF-8''cat.png`,
    );
    expectBytesHeaders(res);
    expect(Buffer.from(await res.arrayBuffer()).equals(cat)).toBe(true);
  });

  it.each([
    ['drawing.svg', svg],
    ['page.html', html],
    ['code.js', js],
    ['data.xml', xml],
    ['report.pdf', pdf],
    ['tone.pcm', pcm],
  ])('serves %s, which could run script or is a document, as an attachment', async (name, bytes) => {
    const res = await file(sha256Of(bytes));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="${name.replace('.', '\\.')}"`),
    );
    expectBytesHeaders(res);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('serves any file as an attachment with ?download=1', async () => {
    const res = await file(sha256Of(cat), `?span=${t.spanId}&download=1`);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="cat.png"/);
  });

  it('serves raw PCM with a rate as WAV: a 44-byte header, then the samples', async () => {
    const res = await file(`${sha256Of(pcm)}/wav`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(res.headers.get('content-length')).toBe(String(44 + pcm.length));
    expectBytesHeaders(res);
    const wav = Buffer.from(await res.arrayBuffer());
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(4)).toBe(36 + pcm.length);
    expect(wav.toString('ascii', 8, 16)).toBe('WAVEfmt ');
    expect(wav.readUInt16LE(20)).toBe(1); // PCM
    expect(wav.readUInt16LE(22)).toBe(1); // mono
    expect(wav.readUInt32LE(24)).toBe(24_000);
    expect(wav.readUInt32LE(28)).toBe(48_000); // bytes per second
    expect(wav.readUInt16LE(32)).toBe(2); // block align
    expect(wav.readUInt16LE(34)).toBe(16);
    expect(wav.toString('ascii', 36, 40)).toBe('data');
    expect(wav.readUInt32LE(40)).toBe(pcm.length);
    expect(wav.subarray(44).equals(pcm)).toBe(true);
  });

  it('serves big-endian audio/L16 as WAV with its samples in little-endian order', async () => {
    const res = await file(`${sha256Of(l16)}/wav`);
    const wav = Buffer.from(await res.arrayBuffer());
    expect(wav.readUInt16LE(22)).toBe(2);
    expect(wav.readUInt32LE(24)).toBe(8000);
    expect(wav.subarray(44)).toEqual(Buffer.from([2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11]));
  });

  it('refuses to play what is not raw PCM with a valid rate', async () => {
    const res = await file(`${sha256Of(cat)}/wav`);
    expect(res.status).toBe(415);
    expect(await res.text()).toContain('download the file instead');
  });

  it('serves a file the record holds inline (never uploaded) from the record, checked by digest', async () => {
    const res = await file(sha256Of(inlineDot));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expectBytesHeaders(res);
    expect(sha256Of(Buffer.from(await res.arrayBuffer()))).toBe(sha256Of(inlineDot));
  });

  it('answers 503 for stored bytes it cannot read, 404 for a file the trace does not hold', async () => {
    const gone = await file(sha256Of(dot));
    expect(gone.status).toBe(503);
    expect(await gone.text()).toContain('Unavailable');
    expectBytesHeaders(gone);
    // A file of this trace asked through another trace.
    expect((await file(sha256Of(cat), '', t.other)).status).toBe(404);
    expect((await file('f'.repeat(64))).status).toBe(404);
    expect((await file('not-a-digest')).status).toBe(404);
    expect((await file(sha256Of(cat), '?span=zz')).status).toBe(404);
  });
});
