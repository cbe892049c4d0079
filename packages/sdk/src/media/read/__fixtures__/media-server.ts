/**
 * The reference server for the media reader's end-to-end tests, and the documented HTTP upload
 * sequence (reserve, PUT, complete) and an OTLP JSON span export, so the tests depend on neither
 * the SDK's uploader nor its exporter.
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { RunningServer, StartServerOptions } from '@svc-run/server';
import { request } from '../../../http/undici.js';
import { sha256Hex } from '../../scan/test-support.js';
import { useMediaServer as useMediaTestServer } from '../../upload/__fixtures__/media-server.js';

/** A random valid trace ID (32 lowercase hex). */
export function newTraceId(): string {
  return randomBytes(16).toString('hex');
}

/** A random valid span ID (16 lowercase hex). */
export function newSpanId(): string {
  return randomBytes(8).toString('hex');
}

/** The `svc.blobs` entry string of a file. */
export function blobEntry(key: string, bytes: Uint8Array, contentType: string, name?: string): string {
  return JSON.stringify({
    key,
    sha256: sha256Hex(bytes),
    size: bytes.length,
    content_type: contentType,
    ...(name === undefined ? {} : { name }),
  });
}

/** The service trace ID (UUID form) of a 32-hex trace ID. */
export function serviceTraceId(traceId: string): string {
  const t = traceId;
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-${t.slice(12, 16)}-${t.slice(16, 20)}-${t.slice(20)}`;
}

/**
 * Starts a server for the calling test file (the media tests' server, see the upload fixtures);
 * the returned function gives it inside tests.
 */
export function useMediaServer(options: StartServerOptions = {}): () => RunningServer {
  const media = useMediaTestServer(options);
  return () => media.server;
}

async function send(
  method: 'POST' | 'PUT',
  url: string,
  headers: Record<string, string>,
  body: string | Uint8Array,
  expected: number[],
  step: string,
): Promise<unknown> {
  const response = await request(url, { method, headers, body });
  const text = await response.body.text();
  if (!expected.includes(response.statusCode)) {
    throw new Error(`${step} answered HTTP ${response.statusCode}: ${text.slice(0, 300)}`);
  }
  return text === '' ? undefined : JSON.parse(text);
}

/** POSTs JSON to a route of the server with the tracing key. */
function post(server: RunningServer, path: string, body: unknown, step: string): Promise<unknown> {
  const headers = { authorization: `Bearer ${server.keys.tracing}`, 'content-type': 'application/json' };
  return send('POST', `${server.origin}${path}`, headers, JSON.stringify(body), [200], step);
}

/** Uploads `bytes` under the trace as the spec's upload sequence does: reserve, PUT without the key, complete. */
export async function uploadFile(
  server: RunningServer,
  traceId: string,
  bytes: Uint8Array,
  contentType: string,
  key: string,
): Promise<void> {
  const sha256 = sha256Hex(bytes);
  const reservation = (await post(
    server,
    '/api/v1/otlp/blobs',
    { traceId, sha256, byteSize: bytes.length, contentType, key },
    'reserve',
  )) as { status: string; url: string; headers: Record<string, string> };
  if (reservation.status === 'exists') return;
  await send('PUT', reservation.url, reservation.headers, bytes, [201, 412], 'PUT');
  await post(server, '/api/v1/otlp/blobs/complete', { traceId, sha256 }, 'complete');
}

type AttributeValue = string | number | string[];

function otlpAttributes(record: Record<string, AttributeValue>) {
  return Object.entries(record).map(([key, value]) => ({
    key,
    value: Array.isArray(value)
      ? { arrayValue: { values: value.map((v) => ({ stringValue: v })) } }
      : typeof value === 'number'
        ? { intValue: String(value) }
        : { stringValue: value },
  }));
}

/** Exports one span of the trace as OTLP JSON with the tracing key. */
export async function exportSpan(
  server: RunningServer,
  traceId: string,
  spanId: string,
  attributes: Record<string, AttributeValue>,
  events: { name: string; attributes: Record<string, AttributeValue> }[] = [],
): Promise<void> {
  const span = {
    traceId,
    spanId,
    name: 'chat',
    kind: 3,
    startTimeUnixNano: '1763740800000000000',
    endTimeUnixNano: '1763740801000000000',
    attributes: otlpAttributes(attributes),
    events: events.map((e) => ({
      name: e.name,
      timeUnixNano: '1763740800500000000',
      attributes: otlpAttributes(e.attributes),
    })),
  };
  const exportRequest = {
    resourceSpans: [
      {
        resource: { attributes: otlpAttributes({ 'service.name': 'media-reader-e2e' }) },
        scopeSpans: [{ scope: { name: 'e2e' }, spans: [span] }],
      },
    ],
  };
  const answer = (await post(server, '/api/v1/otlp/v1/traces', exportRequest, 'export')) as
    | { partialSuccess?: { rejectedSpans?: string | number } }
    | undefined;
  if (Number(answer?.partialSuccess?.rejectedSpans ?? 0) !== 0) throw new Error('the span was rejected');
}
