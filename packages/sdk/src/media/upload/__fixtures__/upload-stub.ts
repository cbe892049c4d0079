/**
 * A stand-in for the service's upload routes (reserve, PUT, complete) on a real loopback port,
 * following the HTTP contract of the media routes, for answers the reference server never gives
 * (an invalid reservation, no upload route, a `Retry-After` of minutes) and for watching what the
 * uploader sends. The uploader's end-to-end behaviour is tested against the reference server.
 * @module
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the stub received. */
export interface StubRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The JSON body of a POST. */
  json?: Record<string, unknown>;
  /** Bytes received by a PUT, their digest, and whether the body arrived whole. */
  put?: { size: number; sha256: string; complete: boolean };
}

/** Overrides the stub's answer to a request; `undefined` lets it answer as the contract says. */
export type StubOverride = (
  request: StubRequest,
) => { status: number; body?: unknown; headers?: Record<string, string> } | 'reset' | undefined;

/** A running stub. */
export interface UploadStub {
  origin: string;
  requests: StubRequest[];
  /** Digests stored, per trace (`<traceId>/<sha256>`). */
  stored: Set<string>;
  /** Answers before the contract's own; taken in order, one per request it overrides. */
  overrides: StubOverride[];
  /** PUTs in progress now, and the most seen at once. */
  concurrency: { now: number; max: number };
  /** When set, PUT bodies are read only once this resolves. */
  holdPuts: Promise<void> | undefined;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts the stub on an ephemeral loopback port. */
export async function startUploadStub(): Promise<UploadStub> {
  const reservations = new Map<string, { traceId: string; sha256: string; size: number }>();
  let next = 0;
  const stub: UploadStub = {
    origin: '',
    requests: [],
    stored: new Set(),
    overrides: [],
    concurrency: { now: 0, max: 0 },
    holdPuts: undefined,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', stub.origin);
    const request: StubRequest = { method: req.method ?? '', path: url.pathname, headers: req.headers };
    stub.requests.push(request);
    if (req.method === 'PUT') {
      stub.concurrency.now++;
      stub.concurrency.max = Math.max(stub.concurrency.max, stub.concurrency.now);
      try {
        if (stub.holdPuts) await stub.holdPuts;
        const hash = createHash('sha256');
        let size = 0;
        let complete = true;
        try {
          for await (const chunk of req) {
            hash.update(chunk as Buffer);
            size += (chunk as Buffer).length;
          }
        } catch {
          complete = false;
        }
        if (req.readableAborted) complete = false;
        request.put = { size, sha256: hash.digest('hex'), complete };
      } finally {
        stub.concurrency.now--;
      }
    } else if (req.method === 'POST') {
      try {
        request.json = JSON.parse((await readBody(req)).toString('utf8'));
      } catch {
        request.json = {};
      }
    }
    const override = stub.overrides.length > 0 ? stub.overrides[0]!(request) : undefined;
    if (override !== undefined) {
      stub.overrides.shift();
      if (override === 'reset') {
        req.socket.destroy();
        return;
      }
      send(res, override.status, override.body, override.headers);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/api/v1/otlp/blobs') {
      const { traceId, sha256, byteSize } = request.json as {
        traceId: string;
        sha256: string;
        byteSize: number;
      };
      const ref = { key: request.json?.key, sha256, size: byteSize, content_type: request.json?.contentType };
      if (stub.stored.has(`${traceId}/${sha256}`)) return send(res, 200, { status: 'exists', ref });
      const id = String(++next);
      reservations.set(id, { traceId, sha256, size: byteSize });
      return send(res, 200, {
        status: 'upload',
        url: `${stub.origin}/upload/${id}?sig=abc`,
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(byteSize) },
        expiresAt: new Date(Date.now() + 900_000).toISOString(),
        ref,
      });
    }
    if (req.method === 'PUT' && url.pathname.startsWith('/upload/')) {
      const reservation = reservations.get(url.pathname.slice('/upload/'.length));
      const put = request.put!;
      if (reservation === undefined) return send(res, 403, { error: { code: 'forbidden', message: 'no' } });
      if (stub.stored.has(`${reservation.traceId}/${reservation.sha256}`)) {
        return send(res, 412, { error: { code: 'already_stored', message: 'stored' } });
      }
      if (!put.complete || put.size !== reservation.size) {
        return send(res, 400, { error: { code: 'size_mismatch', message: 'size' } });
      }
      if (put.sha256 !== reservation.sha256) {
        return send(res, 400, { error: { code: 'digest_mismatch', message: 'digest' } });
      }
      stub.stored.add(`${reservation.traceId}/${reservation.sha256}`);
      return send(res, 201);
    }
    if (req.method === 'POST' && url.pathname === '/api/v1/otlp/blobs/complete') {
      const { traceId, sha256 } = request.json as { traceId: string; sha256: string };
      if (!stub.stored.has(`${traceId}/${sha256}`)) {
        return send(res, 409, { error: { code: 'not_uploaded', message: 'not yet' } });
      }
      return send(res, 200, { status: 'stored', ref: { sha256 } });
    }
    send(res, 404, { error: { code: 'not_found', message: 'no route' } });
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return stub;
}
