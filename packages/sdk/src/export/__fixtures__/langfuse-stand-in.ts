/**
 * A local stand-in for the Langfuse endpoints that `@langfuse/otel`'s `LangfuseSpanProcessor`
 * (5.11.1) calls, so the real processor runs in tests without the network:
 *
 * - `POST /api/public/otel/v1/traces`: its OTLP/HTTP JSON exporter (answered `{}`, the body kept);
 * - `POST /api/public/media`: its media upload request (`{ contentLength, contentType, sha256Hash
 *   (base64), traceId, observationId, field }`), answered with an upload URL on this server and the
 *   media ID Langfuse derives from the hash (the first 22 characters of its URL-safe base64);
 * - `PUT /upload/<mediaId>`: the bytes (kept);
 * - `PATCH /api/public/media/<mediaId>`: the upload's status report.
 *
 * Only what the processor needs to go through a span's export and media upload; answers follow
 * Langfuse's public API reference.
 * @module
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as the stand-in received it (OTLP JSON), attributes as plain string values. */
export interface LangfuseReceivedSpan {
  traceId: string;
  spanId: string;
  name: string;
  scope: string;
  attributes: Record<string, string | undefined>;
}

/** The running stand-in. */
export interface LangfuseStandIn {
  /** Origin to give `LangfuseSpanProcessor` as `baseUrl`. */
  readonly origin: string;
  /** Spans received on the OTLP route, in order. */
  readonly spans: LangfuseReceivedSpan[];
  /** Bytes received on the upload route, by media ID. */
  readonly uploads: Map<string, Buffer>;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

type OtlpJson = {
  resourceSpans?: {
    scopeSpans?: {
      scope?: { name?: string };
      spans?: {
        traceId: string;
        spanId: string;
        name: string;
        attributes?: { key: string; value: { stringValue?: string } }[];
      }[];
    }[];
  }[];
};

function receivedSpans(body: OtlpJson): LangfuseReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resource) =>
    (resource.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        name: span.name,
        scope: scope.scope?.name ?? '',
        attributes: Object.fromEntries((span.attributes ?? []).map((a) => [a.key, a.value.stringValue])),
      })),
    ),
  );
}

/** Starts the stand-in on an ephemeral loopback port. */
export async function startLangfuseStandIn(): Promise<LangfuseStandIn> {
  const spans: LangfuseReceivedSpan[] = [];
  const uploads = new Map<string, Buffer>();
  let origin = '';
  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    const path = new URL(request.url ?? '/', 'http://stand-in').pathname;
    if (request.method === 'POST' && path === '/api/public/otel/v1/traces') {
      spans.push(...receivedSpans(JSON.parse(body.toString('utf8')) as OtlpJson));
      json(response, 200, {});
    } else if (request.method === 'POST' && path === '/api/public/media') {
      const { sha256Hash } = JSON.parse(body.toString('utf8')) as { sha256Hash: string };
      const mediaId = sha256Hash.replaceAll('+', '-').replaceAll('/', '_').slice(0, 22);
      json(response, 200, { mediaId, uploadUrl: `${origin}/upload/${mediaId}` });
    } else if (request.method === 'PUT' && path.startsWith('/upload/')) {
      uploads.set(path.slice('/upload/'.length), body);
      response.writeHead(200).end();
    } else if (request.method === 'PATCH' && path.startsWith('/api/public/media/')) {
      response.writeHead(204).end();
    } else {
      json(response, 404, { message: 'not found' });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    spans,
    uploads,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
