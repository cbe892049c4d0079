/**
 * Test support for the media routes: digests, the upload sequence through the documented routes,
 * and OTLP JSON records that list files. Not part of the package's public API.
 * @module
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { RunningServer } from '../start-server.js';
import { str } from './otlp-fixtures.js';

/** The lowercase hex SHA-256 of `bytes`. */
export function sha256Of(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** An in-process request to `server` (absolute URLs allowed), with `key` as Bearer when given. */
export function call(
  server: RunningServer,
  path: string,
  init: RequestInit & { key?: string; json?: unknown } = {},
): Promise<Response> {
  const { key, json, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (key !== undefined) headers.set('authorization', `Bearer ${key}`);
  if (json !== undefined) headers.set('content-type', 'application/json');
  const body = json === undefined ? rest.body : JSON.stringify(json);
  return Promise.resolve(
    server.app.request(path, { ...rest, headers, ...(body === undefined ? {} : { body }) }),
  );
}

/** Posts OTLP JSON records to `server` with its tracing key, expecting them accepted (200). */
export async function ingest(server: RunningServer, signal: 'traces' | 'logs', body: unknown): Promise<void> {
  const res = await call(server, `/api/v1/otlp/v1/${signal}`, {
    method: 'POST',
    key: server.keys.tracing,
    json: body,
  });
  expect(res.status).toBe(200);
}

/** The status, code and message of an error answer. */
export async function errorOf(res: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await res.json()) as { error: { code: string; message: string } };
  return { status: res.status, ...body.error };
}

/** A reservation request body for `bytes`. */
export function reservation(
  traceId: string,
  bytes: Uint8Array,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    traceId,
    sha256: sha256Of(bytes),
    byteSize: bytes.byteLength,
    contentType: 'image/png',
    key: 'gen_ai.input.messages#/0/parts/1',
    ...overrides,
  };
}

/** The `upload` answer of a reservation. */
export interface UploadTicket {
  status: 'upload';
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
  expiresAt: string;
  ref: { key: string; sha256: string; size: number; content_type: string };
}

/** Reserves `bytes` under `traceId` with the tracing key; fails unless answered `upload`. */
export async function reserve(
  server: RunningServer,
  traceId: string,
  bytes: Uint8Array,
  overrides: Record<string, unknown> = {},
): Promise<UploadTicket> {
  const res = await call(server, '/api/v1/otlp/blobs', {
    method: 'POST',
    key: server.keys.tracing,
    json: reservation(traceId, bytes, overrides),
  });
  const body = (await res.json()) as UploadTicket;
  if (res.status !== 200 || body.status !== 'upload') {
    throw new Error(`expected an upload ticket, got ${res.status} ${JSON.stringify(body)}`);
  }
  return body;
}

/** PUTs `body` to a ticket's URL in-process, with the ticket's headers (and `headers` over them). */
export function put(
  server: RunningServer,
  ticket: UploadTicket,
  body: Uint8Array,
  headers: Record<string, string> = {},
): Promise<Response> {
  return call(server, ticket.url, { method: 'PUT', headers: { ...ticket.headers, ...headers }, body });
}

/** Reserve, PUT and complete: the whole upload sequence, in-process. Fails on any unexpected answer. */
export async function upload(
  server: RunningServer,
  traceId: string,
  bytes: Uint8Array,
  overrides: Record<string, unknown> = {},
): Promise<void> {
  const ticket = await reserve(server, traceId, bytes, overrides);
  const stored = await put(server, ticket, bytes);
  if (stored.status !== 201) throw new Error(`PUT answered ${stored.status}`);
  const done = await call(server, '/api/v1/otlp/blobs/complete', {
    method: 'POST',
    key: server.keys.tracing,
    json: { traceId, sha256: sha256Of(bytes) },
  });
  if (done.status !== 200) throw new Error(`complete answered ${done.status}`);
}

/** Asks the download-link route for a file with `key` (default: the Read key). */
export function downloadLink(
  server: RunningServer,
  traceId: string,
  sha256: string,
  options: { key?: string; spanId?: string } = {},
): Promise<Response> {
  const query = options.spanId === undefined ? '' : `?spanId=${options.spanId}`;
  return call(server, `/api/v1/traces/${traceId}/blobs/${sha256}${query}`, {
    key: options.key ?? server.keys.read,
  });
}

/** A `svc.blobs` entry. */
export interface Entry {
  key: string;
  sha256: string;
  size: number;
  content_type: string;
  name?: string;
}

/** The entry of `bytes` (a PNG at a message part unless overridden). */
export function entryOf(bytes: Uint8Array, overrides: Partial<Entry> = {}): Entry {
  return {
    key: 'gen_ai.input.messages#/0/parts/1',
    sha256: sha256Of(bytes),
    size: bytes.byteLength,
    content_type: 'image/png',
    ...overrides,
  };
}

/** The OTLP JSON `svc.blobs` attribute listing `entries` (strings are taken as they are). */
export function blobsAttribute(entries: readonly (Entry | string)[]) {
  return {
    key: 'svc.blobs',
    value: {
      arrayValue: {
        values: entries.map((e) => ({ stringValue: typeof e === 'string' ? e : JSON.stringify(e) })),
      },
    },
  };
}

/** An OTLP JSON `svc.file` span event for `bytes`. */
export function fileEvent(
  bytes: Uint8Array,
  options: { role?: string; mediaType?: string; name?: string } = {},
) {
  const attributes = [
    str('svc.file.sha256', sha256Of(bytes)),
    { key: 'svc.file.size', value: { intValue: String(bytes.byteLength) } },
    str('svc.file.media_type', options.mediaType ?? 'application/pdf'),
    str('svc.file.role', options.role ?? 'input'),
  ];
  if (options.name !== undefined) attributes.push(str('svc.file.name', options.name));
  return { name: 'svc.file', timeUnixNano: '1763740800500000000', attributes };
}

/** Names of the files (temporary ones included) under the server's blob directory. */
export function blobFiles(server: RunningServer): string[] {
  const root = join(server.dataDir, 'blobs');
  return readdirSync(root).flatMap((shard) => readdirSync(join(root, shard)));
}

/** Where the blob store keeps the file of `sha256`. */
export function blobPath(server: RunningServer, sha256: string): string {
  return join(server.dataDir, 'blobs', sha256.slice(0, 2), sha256);
}
