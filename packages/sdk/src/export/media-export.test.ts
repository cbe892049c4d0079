/**
 * The media step's decisions on records made by hand: the 64-entry limit, the order of entries,
 * refused files (budget, shutdown) per attribute, records that never upload (links, resources,
 * log records without a span), and a failing step leaving the record as the policy made it.
 * Uploads go to the stand-in of the upload routes.
 */
import { createHash } from 'node:crypto';
import { type Attributes, SpanKind } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Agent } from '../http/undici.js';
import { startUploadStub, type UploadStub } from '../media/upload/__fixtures__/upload-stub.js';
import { Uploader } from '../media/upload/uploader.js';
import { useDiagLogger } from '../test-support/diag-logger.js';
import { ExportAccounting } from './export-accounting.js';
import { createMediaExport } from './media-export.js';
import { RecordFiles } from './record-files.js';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const diagnostics = useDiagLogger();
let stub: UploadStub;
const dispatcher = new Agent();
beforeAll(async () => {
  stub = await startUploadStub();
});
afterAll(async () => {
  await dispatcher.close();
  await stub.close();
});

function setup(options: { budgetBytes?: number; apiKey?: string } = {}) {
  const accounting = new ExportAccounting();
  const uploader = new Uploader({
    baseUrl: stub.origin,
    apiKey: 'k',
    // The longest export timeout: a loaded machine only makes an upload slower, never a fallback.
    timeoutMillis: 60_000,
    dispatcher,
    sink: {
      uploaded: () => accounting.uploaded(),
      fallback: (origin, count, reason) => accounting.uploadFallback(origin, count, reason),
    },
    ...(options.budgetBytes === undefined ? {} : { budgetBytes: options.budgetBytes }),
  });
  const files = new RecordFiles(uploader);
  const media = createMediaExport({
    captureContent: true,
    apiKey: options.apiKey ?? 'svc_ordinary_key',
    uploader,
    files,
    accounting,
  });
  return { accounting, uploader, files, media };
}

function spanOf(attributes: Attributes, extra: Partial<ReadableSpan> = {}): ReadableSpan {
  const spanContext = { traceId: TRACE_ID, spanId: 'b7ad6b7169203331', traceFlags: 1 };
  return {
    name: 'span',
    kind: SpanKind.INTERNAL,
    spanContext: () => spanContext,
    startTime: [0, 0],
    endTime: [0, 1],
    status: { code: 0 },
    attributes,
    links: [],
    events: [],
    duration: [0, 1],
    ended: true,
    resource: resourceFromAttributes({ 'service.name': 'test' }),
    instrumentationScope: { name: 'test' },
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
    ...extra,
  } as ReadableSpan;
}

/** Distinct image bytes. */
function image(i: number, size = 200): Buffer {
  const bytes = Buffer.alloc(size, i % 256);
  bytes.writeUInt32BE(i, 0);
  return bytes;
}
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const blobPart = (bytes: Buffer) => ({
  type: 'blob',
  modality: 'image',
  mime_type: 'image/png',
  content: bytes.toString('base64'),
});
const messages = (...images: Buffer[]) => JSON.stringify([{ role: 'user', parts: images.map(blobPart) }]);
const entries = (span: ReadableSpan | ReadableLogRecord) =>
  ((span.attributes['svc.blobs'] as string[] | undefined) ?? []).map((e) => JSON.parse(e) as { key: string });

/** A span whose `input.value` holds the digest of `bytes`, with `bytes` attached as its file. */
function spanWithAttachment(files: RecordFiles, bytes: Buffer): ReadableSpan {
  const span = spanOf({ 'input.value': JSON.stringify({ file: { sha256: sha(bytes) } }) });
  files.setAttribute(span, 'input.value', [
    {
      key: 'input.value#/file',
      sha256: sha(bytes),
      size: bytes.byteLength,
      contentType: 'image/png',
      modality: 'image',
      source: { kind: 'bytes', bytes },
    },
  ]);
  return span;
}

describe('attached files and the upload budget', () => {
  it('counts attached bytes while their records wait for export; past the budget, a file is refused when attached', async () => {
    const { media, accounting, uploader, files } = setup({ budgetBytes: 500 });
    // Three records waiting in the export queue, 200 bytes attached to each.
    const waiting = [1, 2, 3].map((i) => spanWithAttachment(files, image(200 + i)));
    expect(uploader.heldBytes).toBe(400);
    const [third] = files.of(waiting[2]!);
    expect(third?.charge).toBeUndefined();
    const out = waiting.map((span) => media.span(span, span));
    expect(out.map((span) => entries(span).length)).toEqual([1, 1, 0]);
    // The refused file's digest stays in the record.
    expect(out[2]!.attributes['input.value']).toContain(sha(image(203)));
    await uploader.drain();
    expect(accounting.report()).toMatchObject({ uploadedValues: 2, uploadFallbacks: 1 });
    expect(accounting.issues().at(-1)?.message).toBe(
      '1 file not uploaded: the 128 MiB memory budget for uploads was full',
    );
    expect(uploader.heldBytes).toBe(0);
    const stored = (i: number) => stub.stored.has(`${TRACE_ID}/${sha(image(i))}`);
    expect([stored(201), stored(202), stored(203)]).toEqual([true, true, false]);
  });

  it('gives the budget back for a dropped record, a file the redactor removed, and a file already on its way', async () => {
    const { media, uploader, files } = setup({ budgetBytes: 1_000 });
    const dropped = spanWithAttachment(files, image(211));
    files.drop(dropped);
    expect(uploader.heldBytes).toBe(0);

    const redacted = spanWithAttachment(files, image(212));
    const cleaned = spanOf({ 'input.value': '[redacted]' });
    expect(entries(media.span(redacted, cleaned))).toEqual([]);
    expect(uploader.heldBytes).toBe(0);

    // The same bytes attached to two records of one trace: one upload, one charge.
    const first = spanWithAttachment(files, image(213));
    const second = spanWithAttachment(files, image(213));
    expect(uploader.heldBytes).toBe(400);
    media.span(first, first);
    media.span(second, second);
    expect(uploader.heldBytes).toBe(200);
    await uploader.drain();
    expect(uploader.heldBytes).toBe(0);
  });
});

describe('media step', () => {
  it('lists at most 64 files per record; the rest keep their digest without an entry and fall back', async () => {
    const { media, accounting, uploader } = setup();
    const images = Array.from({ length: 70 }, (_, i) => image(i));
    const span = spanOf({ 'gen_ai.input.messages': messages(...images) });
    const out = media.span(span, span);
    expect(entries(out)).toHaveLength(64);
    const parts = JSON.parse(out.attributes['gen_ai.input.messages'] as string)[0].parts;
    expect(parts.every((p: { sha256?: string }) => typeof p.sha256 === 'string')).toBe(true);
    await uploader.drain();
    expect(accounting.report()).toMatchObject({ uploadedValues: 64, uploadFallbacks: 6 });
    expect(accounting.issues().at(-1)).toMatchObject({
      kind: 'warning',
      count: 6,
      message: '6 files not uploaded: the record already lists 64 files in svc.blobs',
    });
  });

  it('lists entries already on the span first, then inline media, then attached files', async () => {
    const { media, files, uploader } = setup();
    const existing = JSON.stringify({
      key: 'custom#',
      sha256: 'a'.repeat(64),
      size: 1,
      content_type: 'text/plain',
    });
    const span = spanOf({
      'svc.blobs': [existing],
      'gen_ai.input.messages': messages(image(100)),
      'gen_ai.output.messages': messages(image(101)),
      'input.value': JSON.stringify({ file: { sha256: sha(image(102)) } }),
    });
    files.setAttribute(span, 'input.value', [
      {
        key: 'input.value#/file',
        sha256: sha(image(102)),
        size: 200,
        contentType: 'image/png',
        modality: 'image',
        source: { kind: 'bytes', bytes: image(102) },
      },
    ]);
    const out = media.span(span, span);
    expect(entries(out).map((e) => e.key)).toEqual([
      'custom#',
      'gen_ai.input.messages#/0/parts/0',
      'gen_ai.output.messages#/0/parts/0',
      'input.value#/file',
    ]);
    await uploader.drain();
  });

  it('exports a record without files as it came, without asking the uploader for anything', () => {
    const { media, uploader, accounting } = setup();
    const batch = vi.spyOn(uploader, 'batch');
    const existing = JSON.stringify({
      key: 'custom#',
      sha256: 'a'.repeat(64),
      size: 1,
      content_type: 'text/plain',
    });
    const span = spanOf({
      'svc.blobs': [existing],
      'gen_ai.input.messages': JSON.stringify([
        { role: 'user', parts: [{ type: 'text', content: 'an image' }] },
      ]),
      'input.value': JSON.stringify({ question: 'is this a document?' }),
      'input.mime_type': 'application/json',
      'output.value': 'data:image/png;base64,iVBORw0KGgo=',
      'output.mime_type': 'text/plain',
    });
    expect(media.span(span, span)).toBe(span);
    expect(span.attributes['svc.blobs']).toEqual([existing]);
    expect(batch).not.toHaveBeenCalled();
    expect(accounting.issues()).toEqual([]);
  });

  it('counts the entries already on the span against the 64 only when a file comes', async () => {
    const { media, accounting, uploader } = setup();
    const existing = Array.from({ length: 64 }, (_, i) =>
      JSON.stringify({ key: `custom#/${i}`, sha256: 'a'.repeat(64), size: 1, content_type: 'text/plain' }),
    );
    const span = spanOf({ 'svc.blobs': existing, 'gen_ai.input.messages': messages(image(300)) });
    const out = media.span(span, span);
    expect(out.attributes['svc.blobs']).toBe(existing);
    const parts = JSON.parse(out.attributes['gen_ai.input.messages'] as string)[0].parts;
    expect(parts[0]).toMatchObject({ sha256: sha(image(300)), size: 200 });
    await uploader.drain();
    expect(accounting.report()).toMatchObject({ uploadedValues: 0, uploadFallbacks: 1 });
  });

  it('refuses what the budget cannot hold: digest in message attributes, bytes inline elsewhere', async () => {
    const { media, accounting } = setup({ budgetBytes: 300 });
    const first = image(200);
    const second = image(201);
    const inline = JSON.stringify({ picture: `data:image/png;base64,${image(202).toString('base64')}` });
    const span = spanOf({ 'gen_ai.input.messages': messages(first, second), 'tool.parameters': inline });
    const out = media.span(span, span);
    expect(entries(out).map((e) => e.key)).toEqual(['gen_ai.input.messages#/0/parts/0']);
    const parts = JSON.parse(out.attributes['gen_ai.input.messages'] as string)[0].parts;
    expect(parts[1]).toEqual({
      type: 'blob',
      modality: 'image',
      mime_type: 'image/png',
      sha256: sha(second),
      size: 200,
    });
    expect(out.attributes['tool.parameters']).toBe(inline);
    expect(accounting.issues().at(-1)).toMatchObject({
      count: 2,
      message: '2 files not uploaded: the 128 MiB memory budget for uploads was full',
    });
  });

  it('refuses every file once uploads are closed by shutdown', () => {
    const { media, accounting, uploader } = setup();
    uploader.close();
    const span = spanOf({ 'gen_ai.input.messages': messages(image(300)) });
    const out = media.span(span, span);
    expect(out.attributes).not.toHaveProperty('svc.blobs');
    expect(accounting.report().uploadFallbacks).toBe(1);
    expect(accounting.issues().at(-1)!.message).toBe('1 file not uploaded: uploads were ended by shutdown');
  });

  it('never uploads from links and resources: media over 64 KiB becomes its digest, smaller media stays', () => {
    const { media, accounting } = setup();
    const large = image(400, 70 * 1024);
    const small = messages(image(401));
    const resource = resourceFromAttributes({ 'gen_ai.input.messages': messages(large) });
    const span = spanOf(
      {},
      {
        resource,
        links: [
          {
            context: { traceId: TRACE_ID, spanId: '1'.repeat(16), traceFlags: 1 },
            attributes: { 'gen_ai.output.messages': small },
          },
        ],
      },
    );
    const out = media.span(span, span);
    expect(JSON.parse(out.resource.attributes['gen_ai.input.messages'] as string)[0].parts[0]).toMatchObject({
      sha256: sha(large),
      size: large.length,
    });
    expect(out.links[0]!.attributes!['gen_ai.output.messages']).toBe(small);
    expect(out.attributes).not.toHaveProperty('svc.blobs');
    // The same resource is scanned once and its copy reused, keeping OTLP's grouping by resource.
    expect(media.span(span, span).resource).toBe(out.resource);
    expect(accounting.report()).toMatchObject({ uploadedValues: 0, uploadFallbacks: 0 });
  });

  it('uploads nothing from a gen_ai log record without a span: over 64 KiB becomes its digest', () => {
    const { media, accounting } = setup();
    const large = image(500, 70 * 1024);
    const record = {
      hrTime: [0, 0],
      hrTimeObserved: [0, 0],
      eventName: 'gen_ai.client.inference.operation.details',
      attributes: { 'gen_ai.input.messages': messages(large, image(501)) },
      body: { messages: [{ role: 'user', parts: [blobPart(large)] }] },
      resource: resourceFromAttributes({}),
      instrumentationScope: { name: 'test' },
      droppedAttributesCount: 0,
    } as unknown as ReadableLogRecord;
    const out = media.logRecord(record, record);
    const parts = JSON.parse(out.attributes['gen_ai.input.messages'] as string)[0].parts;
    expect(parts[0]).toMatchObject({ sha256: sha(large) });
    expect(parts[1]).toEqual(blobPart(image(501)));
    expect((out.body as { messages: { parts: unknown[] }[] }).messages[0]!.parts[0]).toMatchObject({
      sha256: sha(large),
    });
    expect(out.attributes).not.toHaveProperty('svc.blobs');
    expect(accounting.report()).toMatchObject({ uploadedValues: 0, uploadFallbacks: 0 });
  });

  it("lists files of a structured gen_ai log body as body#<pointer> in the record's own svc.blobs", async () => {
    const { media, uploader } = setup();
    const record = {
      hrTime: [0, 0],
      hrTimeObserved: [0, 0],
      spanContext: { traceId: TRACE_ID, spanId: 'b7ad6b7169203331', traceFlags: 1 },
      eventName: 'gen_ai.user.message',
      attributes: {},
      body: { role: 'user', parts: [blobPart(image(600))] },
      resource: resourceFromAttributes({}),
      instrumentationScope: { name: 'test' },
      droppedAttributesCount: 0,
    } as unknown as ReadableLogRecord;
    const out = media.logRecord(record, record);
    expect(entries(out).map((e) => e.key)).toEqual(['body#/parts/0']);
    await uploader.drain();
    expect(stub.stored.has(`${TRACE_ID}/${sha(image(600))}`)).toBe(true);
  });

  it('exports the record as the content policy made it when the step fails, with a warning', () => {
    const { media, accounting } = setup();
    const span = spanOf({ 'gen_ai.input.messages': messages(image(700)) });
    const broken = {
      ...span,
      spanContext: () => {
        throw new Error('no context');
      },
    } as ReadableSpan;
    expect(media.span(broken, broken)).toBe(broken);
    expect(accounting.issues().at(-1)).toMatchObject({
      kind: 'warning',
      message: 'the files of a record were not read: the media scan failed (Error: no context)',
    });
    expect(diagnostics.map((entry) => [entry.level, entry.text.split('\n')[0]])).toEqual([
      ['error', 'svc-run: the files of a record were not read: the media scan failed: Error: no context'],
    ]);
  });
});
