/**
 * Files end to end: createSvc against the reference server. An inline image in a recorded message
 * becomes its digest part, listed in `svc.blobs`, and its bytes are stored (downloaded back with
 * the Read key: same SHA-256 and size); the same bytes in a trace are stored once; uploads under
 * faults never block or fail the export; capture off and setup keys upload nothing; attachments
 * and recorded files upload with their span.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '@svc-run/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { createSvc } from '../client/svc-client.js';
import { Attachment } from '../media/attachment/attachment.js';
import { MAX_DATA_BYTES } from '../media/media-types.js';
import { blobsOf, useMediaServer } from '../media/upload/__fixtures__/media-server.js';
import { transportInternals } from './svc-transport.js';

const media = useMediaServer();
const cat = readFileSync(new URL('../../../../fixtures/media/cat.png', import.meta.url));
const catSha = createHash('sha256').update(cat).digest('hex');
const pdf = readFileSync(new URL('../../../../fixtures/media/report.pdf', import.meta.url));
const pdfSha = createHash('sha256').update(pdf).digest('hex');
const dir = mkdtempSync(join(tmpdir(), 'svc-media-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** GenAI input messages with the cat as an inline blob part. */
const messagesWithCat = () => [
  {
    role: 'user',
    parts: [
      { type: 'text', content: 'What is in this picture?' },
      { type: 'blob', modality: 'image', mime_type: 'image/png', content: cat.toString('base64') },
    ],
  },
];
const catPart = { type: 'blob', modality: 'image', mime_type: 'image/png', sha256: catSha, size: cat.length };
const catEntry = {
  key: 'gen_ai.input.messages#/0/parts/1',
  sha256: catSha,
  size: cat.length,
  content_type: 'image/png',
};

describe('files in recorded messages', () => {
  it('exports the digest part and its svc.blobs entry, then stores the bytes', async () => {
    const svc = media.client();
    const traceId = await svc.withSpan('turn', async (span) => {
      await svc.model({ provider: 'openai', model: 'gpt-4o-mini', input: messagesWithCat() }, () => 'ok');
      return span.traceId;
    });
    const report = await svc.flush();
    expect(report).toMatchObject({ acceptedSpans: 2, uploadedValues: 1, uploadFallbacks: 0 });
    const model = media.span(traceId, 'chat gpt-4o-mini');
    expect(JSON.parse(model.attributes['gen_ai.input.messages'] as string)[0].parts[1]).toEqual(catPart);
    expect(blobsOf(model.attributes)).toEqual([catEntry]);
    expect(await media.download(traceId, catSha)).toMatchObject({
      status: 200,
      sha256: catSha,
      size: cat.length,
      contentType: 'image/png',
    });
  });

  it('stores the same image twice in a trace once', async () => {
    const svc = media.client();
    const traceId = await svc.withSpan('turn', async (span) => {
      await svc.model({ provider: 'openai', model: 'first', input: messagesWithCat() }, () => 'ok');
      await svc.model({ provider: 'openai', model: 'second', input: messagesWithCat() }, () => 'ok');
      return span.traceId;
    });
    const report = await svc.flush();
    expect(report).toMatchObject({ acceptedSpans: 3, uploadedValues: 1, uploadFallbacks: 0 });
    for (const name of ['chat first', 'chat second']) {
      expect(blobsOf(media.span(traceId, name).attributes)).toEqual([catEntry]);
    }
    expect(await media.download(traceId, catSha)).toMatchObject({ status: 200, sha256: catSha });
  });

  it('never blocks or fails the export when uploads fail: the record keeps its entry, the file counts as a fallback', async () => {
    const svc = media.client();
    media.server.faults!.inject('blobs.reserve', { kind: 'status', status: 503, retryAfterSeconds: 0 }, 3);
    const traceId = await svc.model(
      { provider: 'openai', model: 'faulty', input: messagesWithCat() },
      (call) => call.traceId,
    );
    const report = await svc.flush();
    expect(report).toMatchObject({ acceptedSpans: 1, failedSpans: 0, uploadedValues: 0, uploadFallbacks: 1 });
    const span = media.span(traceId, 'chat faulty');
    expect(blobsOf(span.attributes)).toEqual([catEntry]);
    expect(JSON.parse(span.attributes['gen_ai.input.messages'] as string)[0].parts[1]).toEqual(catPart);
    expect(await media.download(traceId, catSha)).toEqual({ status: 404, code: 'missing' });
    expect(svc.transport.getIssues().at(-1)).toMatchObject({
      signal: 'traces',
      kind: 'warning',
      count: 1,
      message: '1 file not uploaded: the service refused the reservation (HTTP 503 unavailable)',
    });
  });

  it('exports the record at once, before its upload ends; shutdown ends the upload as a fallback', async () => {
    const svc = media.client();
    // The upload's reservation is held until afterEach releases it: the upload cannot end by itself.
    media.server.faults!.inject('blobs.reserve', { kind: 'hang' });
    const traceId = await svc.model(
      { provider: 'openai', model: 'slow', input: messagesWithCat() },
      (call) => call.traceId,
    );
    const flushed = svc.flush();
    await waitUntil(() => svc.transport.getReport().acceptedSpans === 1, 'the export of the span');
    expect(media.spans(traceId)).toHaveLength(1);
    expect(svc.transport.getReport()).toMatchObject({
      acceptedSpans: 1,
      uploadedValues: 0,
      uploadFallbacks: 0,
    });
    const report = await svc.shutdownSafe(200);
    expect(report).toMatchObject({ acceptedSpans: 1, failedSpans: 0, uploadedValues: 0, uploadFallbacks: 1 });
    await flushed;
    expect(svc.transport.getIssues().at(-1)!.message).toBe(
      '1 file not uploaded: the upload was ended by shutdown',
    );
  });

  it('with capture off, scans nothing and uploads nothing', async () => {
    const svc = media.client({ captureContent: false });
    const traceId = await svc.model(
      { provider: 'openai', model: 'off', input: messagesWithCat() },
      (call) => {
        call.recordFile({ role: 'input', data: pdf, mediaType: 'application/pdf', upload: true });
        return call.traceId;
      },
    );
    expect(await svc.flush()).toMatchObject({ acceptedSpans: 1, uploadedValues: 0, uploadFallbacks: 0 });
    const span = media.span(traceId, 'chat off');
    expect(span.attributes).not.toHaveProperty('gen_ai.input.messages');
    expect(span.attributes).not.toHaveProperty('svc.blobs');
    expect(span.events.find((e) => e.name === 'svc.file')?.attributes['svc.file.sha256']).toBe(pdfSha);
    expect(await media.download(traceId, pdfSha)).toEqual({ status: 404, code: 'missing' });
  });

  it('with a setup credential, uploads nothing: message files keep their digest without an entry', async () => {
    const svc = media.client({ apiKey: media.server.keys.setup });
    const traceId = await svc.model(
      { provider: 'openai', model: 'setup', input: messagesWithCat() },
      (call) => call.traceId,
    );
    expect(await svc.flush()).toMatchObject({ acceptedSpans: 1, uploadedValues: 0, uploadFallbacks: 1 });
    const span = media.span(traceId, 'chat setup');
    expect(JSON.parse(span.attributes['gen_ai.input.messages'] as string)[0].parts[1]).toEqual(catPart);
    expect(span.attributes).not.toHaveProperty('svc.blobs');
    expect((await media.download(traceId, catSha)).status).toBe(404);
  });

  it('keeps the bytes of a refused file inline outside the message attributes', async () => {
    const svc = media.client({ apiKey: media.server.keys.setup });
    const value = { picture: `data:image/png;base64,${cat.toString('base64')}` };
    const traceId = svc.withSpan('tool input', (span) => span.traceId, { input: value });
    await svc.flush();
    const span = media.span(traceId, 'tool input');
    expect(span.attributes['input.value']).toBe(JSON.stringify(value));
    expect(span.attributes).not.toHaveProperty('svc.blobs');
  });

  it('uploads files of a recordMessages log record, listed in its own svc.blobs', async () => {
    const svc = media.client();
    const traceId = svc.withSpan('turn', (span) => {
      svc.recordMessages({
        input: messagesWithCat(),
        output: [{ role: 'assistant', parts: [{ type: 'text', content: 'a cat' }] }],
      });
      return span.traceId;
    });
    expect(await svc.flush()).toMatchObject({ acceptedLogs: 1, uploadedValues: 1, uploadFallbacks: 0 });
    const [log] = media.logs(traceId);
    expect(blobsOf(log!.attributes)).toEqual([catEntry]);
    expect(JSON.parse(log!.attributes['gen_ai.input.messages'] as string)[0].parts[1]).toEqual(catPart);
    expect(await media.download(traceId, catSha, log!.spanId)).toMatchObject({ status: 200, sha256: catSha });
  });

  it('never uploads from span events: large media becomes its digest, small media stays', async () => {
    const svc = media.client();
    const large = Buffer.alloc(100 * 1024, 3);
    const messages = (bytes: Buffer) =>
      JSON.stringify([
        {
          role: 'user',
          parts: [
            { type: 'blob', modality: 'image', mime_type: 'image/png', content: bytes.toString('base64') },
          ],
        },
      ]);
    const traceId = svc.withSpan('events', (span) => {
      span.span.addEvent('gen_ai.client.inference.operation.details', {
        'gen_ai.input.messages': messages(large),
        'gen_ai.output.messages': messages(cat),
      });
      return span.traceId;
    });
    expect(await svc.flush()).toMatchObject({ acceptedSpans: 1, uploadedValues: 0, uploadFallbacks: 0 });
    const span = media.span(traceId, 'events');
    const event = span.events[0]!;
    expect(JSON.parse(event.attributes['gen_ai.input.messages'] as string)[0].parts[0]).toEqual({
      type: 'blob',
      modality: 'image',
      mime_type: 'image/png',
      sha256: createHash('sha256').update(large).digest('hex'),
      size: large.length,
    });
    expect(event.attributes['gen_ai.output.messages']).toBe(messages(cat));
    expect(span.attributes).not.toHaveProperty('svc.blobs');
  });
});

describe('Attachment', () => {
  it('records a valid attachment in digest form and uploads it with the span', async () => {
    const svc = media.client();
    const attachment = new Attachment({ data: cat, contentType: 'image/png', name: 'cat.png' });
    const traceId = svc.withSpan('describe', (span) => span.traceId, {
      input: { question: 'what?', file: attachment },
    });
    expect(await svc.flush()).toMatchObject({ uploadedValues: 1, uploadFallbacks: 0 });
    const span = media.span(traceId, 'describe');
    expect(JSON.parse(span.attributes['input.value'] as string)).toEqual({
      question: 'what?',
      file: { ...catPart, name: 'cat.png' },
    });
    expect(blobsOf(span.attributes)).toEqual([
      {
        key: 'input.value#/file',
        sha256: catSha,
        size: cat.length,
        content_type: 'image/png',
        name: 'cat.png',
      },
    ]);
    expect(await media.download(traceId, catSha)).toMatchObject({
      status: 200,
      sha256: catSha,
      name: 'cat.png',
    });
  });

  it('records an invalid attachment as null, counted as a warning issue; an invalid name alone is omitted', async () => {
    const svc = media.client();
    const invalid = new Attachment({ data: cat, contentType: 'not a type' });
    const unnamed = new Attachment({ data: pdf, contentType: 'application/pdf', name: '\u0007' });
    const traceId = await svc.withSpan('outer', async (span) => {
      await svc.tool('read', { bad: invalid, doc: unnamed }, () => 'read');
      return span.traceId;
    });
    expect(await svc.flush()).toMatchObject({ uploadedValues: 1, uploadFallbacks: 0 });
    const issues = svc.transport.getIssues().filter((i) => i.kind === 'warning');
    expect(issues.map((i) => [i.count, i.message])).toEqual([
      [
        1,
        'an attachment in gen_ai.tool.call.arguments was recorded as null: the attachment content type is not a valid media type',
      ],
      [
        1,
        'an attachment name was omitted: it must be 1 to 256 characters, nonblank, without control characters (in gen_ai.tool.call.arguments)',
      ],
    ]);
    const span = media.span(traceId, 'execute_tool read');
    expect(JSON.parse(span.attributes['gen_ai.tool.call.arguments'] as string)).toEqual({
      bad: null,
      doc: {
        type: 'blob',
        mime_type: 'application/pdf',
        modality: 'document',
        sha256: pdfSha,
        size: pdf.length,
      },
    });
    expect(blobsOf(span.attributes).map((e) => e.key)).toEqual(['gen_ai.tool.call.arguments#/doc']);
  });

  it('uploads a path attachment over 25 MiB streamed from disk, in tool arguments', async () => {
    const path = join(dir, 'large.bin');
    const bytes = Buffer.alloc(MAX_DATA_BYTES + 1024, 9);
    writeFileSync(path, bytes);
    const sha = createHash('sha256').update(bytes).digest('hex');
    const svc = media.client();
    const attachment = new Attachment({ path, contentType: 'application/octet-stream', name: 'large.bin' });
    const traceId = await svc.withSpan('outer', async (span) => {
      await svc.tool('archive', { file: attachment }, () => 'done');
      return span.traceId;
    });
    expect(await svc.flush()).toMatchObject({ uploadedValues: 1, uploadFallbacks: 0 });
    expect(blobsOf(media.span(traceId, 'execute_tool archive').attributes)).toEqual([
      {
        key: 'gen_ai.tool.call.arguments#/file',
        sha256: sha,
        size: bytes.length,
        content_type: 'application/octet-stream',
        name: 'large.bin',
      },
    ]);
    expect(await media.download(traceId, sha)).toMatchObject({
      status: 200,
      sha256: sha,
      size: bytes.length,
    });
  });

  it('uploads nothing the redactor removed', async () => {
    const svc = createSvc({
      apiKey: media.server.keys.tracing,
      baseUrl: media.server.origin,
      serviceName: 'redacting',
      captureContent: true,
      timeoutMillis: 60_000,
      redact: (value, path) => (path === 'attributes.input.value' ? '{"file":"[removed]"}' : value),
    });
    try {
      const attachment = new Attachment({ data: pdf, contentType: 'application/pdf' });
      const traceId = svc.withSpan('redacted', (span) => span.traceId, { input: { file: attachment } });
      expect(await svc.flush()).toMatchObject({ uploadedValues: 0, uploadFallbacks: 0 });
      const span = media.span(traceId, 'redacted');
      expect(span.attributes['input.value']).toBe('{"file":"[removed]"}');
      expect(span.attributes).not.toHaveProperty('svc.blobs');
    } finally {
      await svc.shutdown();
    }
  });
});

describe('recordFile', () => {
  it('records the svc.file event, and with upload: true an entry and the bytes', async () => {
    const svc = media.client();
    const traceId = svc.withSpan('files', (span) => {
      span.recordFile({
        role: 'input',
        data: pdf,
        mediaType: 'application/pdf',
        name: 'report.pdf',
        upload: true,
      });
      span.recordFile({ role: 'output', data: cat, mediaType: 'image/png' });
      return span.traceId;
    });
    expect(await svc.flush()).toMatchObject({ uploadedValues: 1, uploadFallbacks: 0 });
    const span = media.span(traceId, 'files');
    expect(span.events.filter((e) => e.name === 'svc.file').map((e) => e.attributes)).toEqual([
      {
        'svc.file.sha256': pdfSha,
        'svc.file.size': pdf.length,
        'svc.file.media_type': 'application/pdf',
        'svc.file.role': 'input',
        'svc.file.name': 'report.pdf',
      },
      {
        'svc.file.sha256': catSha,
        'svc.file.size': cat.length,
        'svc.file.media_type': 'image/png',
        'svc.file.role': 'output',
      },
    ]);
    expect(blobsOf(span.attributes)).toEqual([
      {
        key: `event:svc.file:${pdfSha}`,
        sha256: pdfSha,
        size: pdf.length,
        content_type: 'application/pdf',
        name: 'report.pdf',
      },
    ]);
    expect(await media.download(traceId, pdfSha)).toMatchObject({
      status: 200,
      sha256: pdfSha,
      name: 'report.pdf',
    });
    expect(await media.download(traceId, catSha)).toEqual({ status: 404, code: 'missing' });
  });

  it('with capture off, records the event and keeps no bytes beside the span for upload', async () => {
    const svc = media.client({ captureContent: false });
    const span = svc.withSpan('kept', (handle) => {
      handle.recordFile({ role: 'input', data: pdf, mediaType: 'application/pdf', upload: true });
      return handle.span;
    });
    expect(transportInternals(svc.transport)?.files.of(span)).toEqual([]);
    expect(await svc.flush()).toMatchObject({ acceptedSpans: 1, uploadedValues: 0, uploadFallbacks: 0 });
    const stored = media.span(span.spanContext().traceId, 'kept');
    expect(stored.events.find((e) => e.name === 'svc.file')?.attributes['svc.file.sha256']).toBe(pdfSha);
    expect(stored.attributes).not.toHaveProperty('svc.blobs');
  });

  it('records nothing for invalid options and raises a warning, never throwing', async () => {
    const svc = media.client();
    svc.withSpan('bad file', (span) => {
      span.recordFile({ role: 'input', mediaType: 'application/pdf' });
      span.recordFile({ role: 'owner' as never, data: pdf, mediaType: 'application/pdf' });
    });
    await svc.flush();
    expect(svc.transport.getIssues().map((i) => i.message)).toEqual([
      'recordFile recorded nothing: recorded file needs exactly one of data or path',
      'recordFile recorded nothing: recordFile role must be input, attachment or output',
    ]);
  });
});
