/**
 * File bytes for the logged-in browser, same origin: `GET /traces/{traceId}/files/{sha256}`
 * (`?span=` the span it is shown in, `?download=1` as an attachment) and `…/wav` (raw PCM played
 * as WAV). Every answer has `nosniff` and a sandbox CSP; bytes are inline only for types that
 * cannot run script (raster images, audio, video, plain text), attachments otherwise (HTML, SVG,
 * XML, JavaScript, documents).
 * @module
 */
import { Readable } from 'node:stream';
import type { Context, Hono } from 'hono';
import type { StoredBlob } from '../../media/blob-store.js';
import { contentDisposition } from '../../media/content-disposition.js';
import { isSha256Hex } from '../../media/sha256-hex.js';
import { traceIdFromEither } from '../../store/service-trace-id.js';
import { servedInline } from '../files/file-presentation.js';
import { headerType, locateFile } from '../files/locate-file.js';
import { pcmFormat, wavStream } from '../files/raw-pcm.js';
import { sessionOf } from '../session/session-guard.js';
import { BYTES_HEADERS } from '../viewer-headers.js';
import type { ViewerOptions } from '../viewer-options.js';

const SPAN_ID = /^[0-9a-f]{16}$/;

function disposition(inline: boolean, name: string | null): string {
  const attachment = contentDisposition(name);
  return inline ? attachment.replace(/^attachment/, 'inline') : attachment;
}

function refusal(status: 401 | 404 | 415 | 503, message: string): Response {
  return new Response(`${message}\n`, {
    status,
    headers: { ...BYTES_HEADERS, 'content-type': 'text/plain; charset=utf-8' },
  });
}

const UNREADABLE = 'Unavailable: the service cannot read the stored bytes of this file.';

/** Opens stored bytes of `size`, or `undefined` when they cannot be read whole. */
async function openStored(
  open: () => Promise<StoredBlob | undefined>,
  size: number,
): Promise<StoredBlob | undefined> {
  const blob = await open().catch(() => undefined);
  if (blob !== undefined && blob.size !== size) {
    blob.stream.destroy();
    return undefined;
  }
  return blob;
}

/** The request's trace, file and span, or the refusal to answer with. */
function target(
  c: Context,
  options: ViewerOptions,
): { traceId: string; sha256: string; spanId?: string } | Response {
  if (sessionOf(c, options) === undefined) return refusal(401, 'Log in to the viewer first.');
  const traceId = traceIdFromEither((c.req.param('traceId') ?? '').toLowerCase());
  const sha256 = c.req.param('sha256') ?? '';
  const spanId = c.req.query('span');
  if (traceId === undefined || !isSha256Hex(sha256) || (spanId !== undefined && !SPAN_ID.test(spanId))) {
    return refusal(404, 'No such file.');
  }
  return { traceId, sha256, ...(spanId === undefined ? {} : { spanId }) };
}

/** Registers the file routes. */
export function registerFileRoutes(app: Hono, options: ViewerOptions): void {
  app.get('/traces/:traceId/files/:sha256', async (c) => {
    const asked = target(c, options);
    if (asked instanceof Response) return asked;
    const file = await locateFile(options, asked.traceId, asked.sha256, asked.spanId);
    if (file.kind === 'absent') return refusal(file.status, file.message);
    const type = headerType(file.contentType);
    const inline = c.req.query('download') !== '1' && servedInline(type);
    const headers = {
      ...BYTES_HEADERS,
      'content-type': type,
      'content-disposition': disposition(inline, file.name),
    };
    if (file.kind === 'inline') {
      return new Response(file.bytes as Uint8Array<ArrayBuffer>, {
        headers: { ...headers, 'content-length': String(file.bytes.length) },
      });
    }
    const blob = await openStored(file.open, file.size);
    if (blob === undefined) return refusal(503, UNREADABLE);
    return new Response(Readable.toWeb(blob.stream) as ReadableStream<Uint8Array>, {
      headers: { ...headers, 'content-length': String(file.size) },
    });
  });

  app.get('/traces/:traceId/files/:sha256/wav', async (c) => {
    const asked = target(c, options);
    if (asked instanceof Response) return asked;
    const file = await locateFile(options, asked.traceId, asked.sha256, asked.spanId);
    if (file.kind === 'absent') return refusal(file.status, file.message);
    const format = pcmFormat(file.contentType);
    if (format === undefined) {
      return refusal(
        415,
        'Not playable: only raw 16-bit PCM with a rate from 8000 to 192000 and 1 or 2 channels plays; download the file instead.',
      );
    }
    let source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
    let size: number;
    if (file.kind === 'inline') {
      source = [file.bytes];
      size = file.bytes.length;
    } else {
      const blob = await openStored(file.open, file.size);
      if (blob === undefined) return refusal(503, UNREADABLE);
      source = blob.stream;
      size = file.size;
    }
    const wav = wavStream(format, size, source);
    const name = file.name === null ? null : `${file.name.replace(/\.(pcm|raw|l16)$/i, '')}.wav`;
    return new Response(wav.body, {
      headers: {
        ...BYTES_HEADERS,
        'content-type': 'audio/wav',
        'content-length': String(wav.length),
        'content-disposition': disposition(true, name),
      },
    });
  });
}
