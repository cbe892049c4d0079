/**
 * The reference server for the media tests, with clients on it and readers of what it stored:
 * span and log attributes as plain values, `svc.blobs` entries, and a file's bytes downloaded
 * through the download-link route with the Read key (as an application would).
 * @module
 */
import { createHash } from 'node:crypto';
import { type RunningServer, type StartServerOptions, startServer } from '@svc-run/server';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createSvc, type SvcClient } from '../../../client/svc-client.js';
import type { BlobEntry } from '../../media-types.js';

type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
  kvlistValue?: { values?: { key: string; value: AnyValue }[] };
};

/** An OTLP AnyValue as a plain value. */
export function plain(value: AnyValue | null | undefined): unknown {
  if (value === null || value === undefined) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(plain);
  if (value.kvlistValue !== undefined) {
    return Object.fromEntries((value.kvlistValue.values ?? []).map((kv) => [kv.key, plain(kv.value)]));
  }
  return undefined;
}

function attributesOf(list: { key: string; value: unknown }[]): Record<string, unknown> {
  return Object.fromEntries(list.map((a) => [a.key, plain(a.value as AnyValue)]));
}

/** A stored span, attributes and event attributes as plain values. */
export interface StoredSpan {
  name: string;
  spanId: string;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
}

/** A stored log record, attributes and body as plain values. */
export interface StoredLog {
  eventName: string;
  spanId: string;
  attributes: Record<string, unknown>;
  body: unknown;
}

/** A downloaded file. */
export interface Downloaded {
  status: number;
  sha256?: string;
  size?: number;
  contentType?: string;
  name?: string | null;
  /** The error code, when the link route refused. */
  code?: string;
}

/** The `svc.blobs` entries of a record's attributes, parsed. */
export function blobsOf(attributes: Record<string, unknown>): BlobEntry[] {
  const entries = attributes['svc.blobs'];
  return Array.isArray(entries) ? entries.map((e) => JSON.parse(e as string) as BlobEntry) : [];
}

/**
 * Downloads a file of a trace as an application would: the download link from the link route with
 * the Read key, then the bytes from the link without it. Hashes what it got.
 */
export async function downloadFile(
  server: Pick<RunningServer, 'origin' | 'keys'>,
  traceId: string,
  sha256: string,
  spanId?: string,
): Promise<Downloaded> {
  const query = spanId === undefined ? '' : `?spanId=${spanId}`;
  const link = await fetch(`${server.origin}/api/v1/traces/${traceId}/blobs/${sha256}${query}`, {
    headers: { authorization: `Bearer ${server.keys.read}` },
  });
  const answer = (await link.json()) as { url?: string; name?: string | null; error?: { code: string } };
  if (link.status !== 200) return { status: link.status, code: answer.error?.code ?? '' };
  const file = await fetch(answer.url!);
  const bytes = Buffer.from(await file.arrayBuffer());
  return {
    status: file.status,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    size: bytes.length,
    contentType: file.headers.get('content-type') ?? '',
    name: answer.name ?? null,
  };
}

/** Starts a server for the calling test file; the returned functions use it. */
export function useMediaServer(options: StartServerOptions = {}) {
  let server: RunningServer;
  const clients: SvcClient[] = [];
  beforeAll(async () => {
    server = await startServer({ faultInjection: true, ...options });
  });
  afterEach(async () => {
    server.faults?.clear();
    await Promise.allSettled(clients.splice(0).map((c) => c.shutdownSafe(5_000)));
  });
  afterAll(async () => {
    await server.close();
  });
  const fixture = {
    get server(): RunningServer {
      return server;
    },
    /** A client on the server; the longest request timeout by default (a loaded machine only slows it). */
    client(settings: { captureContent?: boolean; apiKey?: string; timeoutMillis?: number } = {}): SvcClient {
      const svc = createSvc({
        apiKey: settings.apiKey ?? server.keys.tracing,
        baseUrl: server.origin,
        serviceName: 'media-e2e',
        captureContent: settings.captureContent ?? true,
        timeoutMillis: settings.timeoutMillis ?? 60_000,
      });
      clients.push(svc);
      return svc;
    },
    spans(traceId: string): StoredSpan[] {
      return server.traceStore.listSpans(traceId).map((s) => ({
        name: s.name,
        spanId: s.spanId,
        attributes: attributesOf(s.attributes),
        events: s.events.map((e) => ({ name: e.name, attributes: attributesOf(e.attributes) })),
      }));
    },
    span(traceId: string, name: string): StoredSpan {
      const found = fixture.spans(traceId).filter((s) => s.name === name);
      if (found.length !== 1) throw new Error(`expected one ${name} span, found ${found.length}`);
      return found[0]!;
    },
    logs(traceId: string): StoredLog[] {
      return server.traceStore.listLogs(traceId).map((l) => ({
        eventName: l.eventName,
        spanId: l.spanId,
        attributes: attributesOf(l.attributes),
        body: plain(l.body as AnyValue | null),
      }));
    },
    /** Downloads a file of a trace with the Read key and hashes it. */
    download(traceId: string, sha256: string, spanId?: string): Promise<Downloaded> {
      return downloadFile(server, traceId, sha256, spanId);
    },
  };
  return fixture;
}
