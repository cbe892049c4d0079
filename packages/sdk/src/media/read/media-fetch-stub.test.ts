/**
 * `media.fetch` against a small node:http stand-in of the service, for answers the reference
 * server never gives (tampered bytes, a lying content-length, malformed links, redirects).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MediaFetchError } from '../../errors/media-fetch-error.js';
import { createMediaReader } from './media-reader.js';

const KEY = 'svc_read_stub_0123456789abcdef';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SNAPSHOT_ID = '0b7c3c9e-8d2a-4f57-9a43-2f6d0c1e5b8a';
const SIGNATURE = 'sig=5ecret5ignature';
const bytes = new TextEncoder().encode('hello, file');
const sha256 = createHash('sha256').update(bytes).digest('hex');

type Handler = (res: ServerResponse, headers: IncomingHttpHeaders) => void;

let server: Server;
let origin: string;
let linkRoute: Handler;
let downloadRoute: Handler;
const seen: { path: string; headers: IncomingHttpHeaders }[] = [];

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function link(overrides: Record<string, unknown> = {}): Handler {
  return (res) =>
    json(res, 200, {
      url: `${origin}/download/${sha256}?${SIGNATURE}`,
      name: 'hello.txt',
      sha256,
      size: bytes.length,
      contentType: 'text/plain',
      expiresAt: new Date(Date.now() + 300_000).toISOString(),
      ...overrides,
    });
}

function serveBytes(body: Uint8Array, headers: Record<string, string> = {}): Handler {
  return (res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(body.length), ...headers });
    res.end(body);
  };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '';
    seen.push({ path, headers: req.headers });
    if (path.startsWith('/api/v1/traces/') || path.startsWith('/api/v1/evals/trace-snapshots/')) {
      linkRoute(res, req.headers);
    } else if (path.startsWith('/download/')) downloadRoute(res, req.headers);
    else json(res, 404, { error: { code: 'not_found', message: 'no route' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  seen.length = 0;
  linkRoute = link();
  downloadRoute = serveBytes(bytes);
});

function reader() {
  return createMediaReader({ apiKey: KEY, baseUrl: origin, timeoutMillis: 60_000 });
}

/** The MediaFetchError `promise` rejects with (fails the test otherwise). */
async function failure(promise: Promise<unknown>): Promise<MediaFetchError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!MediaFetchError.isInstance(error))
    throw new Error(`expected a MediaFetchError, got ${inspect(error)}`);
  // No message, field or inspection ever shows the key, the signed link or a server body.
  const shown = `${error.message} ${inspect(error, { depth: 10, showHidden: true })}`;
  expect(shown).not.toContain(KEY);
  expect(shown).not.toContain(SIGNATURE);
  expect(shown).not.toContain('server says');
  return error;
}

describe('media.fetch against a stub service', () => {
  beforeAll(() => {
    linkRoute = link();
    downloadRoute = serveBytes(bytes);
  });

  it('asks for the link with the key and downloads it without the key', async () => {
    const got = await reader().fetch({ traceId: TRACE_ID, sha256, spanId: '00f067aa0ba902b7' });
    expect(Buffer.from(got).toString()).toBe('hello, file');
    expect(got).toBeInstanceOf(Uint8Array);
    expect(seen.map((s) => s.path)).toEqual([
      `/api/v1/traces/${TRACE_ID}/blobs/${sha256}?spanId=00f067aa0ba902b7`,
      `/download/${sha256}?${SIGNATURE}`,
    ]);
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(seen[1]!.headers.authorization).toBeUndefined();
    expect(JSON.stringify(seen[1]!.headers)).not.toContain(KEY);
  });

  it('asks the trace-snapshot route for a snapshotId, then downloads without the key', async () => {
    const got = await reader().fetch({ snapshotId: SNAPSHOT_ID, sha256, spanId: '00f067aa0ba902b7' });
    expect(Buffer.from(got).toString()).toBe('hello, file');
    expect(seen.map((s) => s.path)).toEqual([
      `/api/v1/evals/trace-snapshots/${SNAPSHOT_ID}/blobs/${sha256}?spanId=00f067aa0ba902b7`,
      `/download/${sha256}?${SIGNATURE}`,
    ]);
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(seen[1]!.headers.authorization).toBeUndefined();
  });

  it.each([
    [
      401,
      { error: { code: 'unauthorized', message: 'server says no' } },
      'forbidden',
      /use a Read and write key/,
    ],
    [
      403,
      { error: { code: 'forbidden', message: 'server says no' } },
      'forbidden',
      /snapshot copies of files need a Read and write key; a Read key, Tracing key or setup credential cannot read them/,
    ],
    [
      404,
      { error: { code: 'missing', message: 'server says gone' } },
      'missing',
      /trace snapshot lists this file/,
    ],
    [
      404,
      { error: { code: 'not_found', message: 'server says none' } },
      'not_found',
      /snapshot lists no file with this SHA-256, or no snapshot has this ID .*check snapshotId/,
    ],
    [503, { error: { code: 'unavailable', message: 'server says down' } }, 'unavailable', /try again later/],
  ] as const)('maps a snapshot link answer %i %j to %s', async (status, body, reason, message) => {
    linkRoute = (res) => json(res, status, body);
    const error = await failure(reader().fetch({ snapshotId: SNAPSHOT_ID, sha256 }));
    expect(error.reason).toBe(reason);
    expect(error.status).toBe(status);
    expect(error.message).toMatch(message);
    expect(seen).toHaveLength(1);
  });

  it('refuses bytes whose SHA-256 differs: digest_mismatch', async () => {
    const tampered = new TextEncoder().encode('hello, fil3');
    downloadRoute = serveBytes(tampered);
    const error = await failure(reader().fetch({ traceId: TRACE_ID, sha256 }));
    expect(error.reason).toBe('digest_mismatch');
    expect(error.status).toBe(200);
    expect(error.message).toMatch(/do not have the SHA-256 asked for/);
  });

  it('refuses a file the link declares over maxBytes without downloading it: too_large', async () => {
    const error = await failure(reader().fetch({ traceId: TRACE_ID, sha256, maxBytes: bytes.length - 1 }));
    expect(error.reason).toBe('too_large');
    expect(error.message).toContain(`maxBytes (${bytes.length - 1} bytes)`);
    expect(seen.map((s) => s.path.split('?')[0])).toEqual([`/api/v1/traces/${TRACE_ID}/blobs/${sha256}`]);
  });

  it('stops at a declared content-length over maxBytes even when the link understated the size', async () => {
    linkRoute = link({ size: 1 });
    const error = await failure(reader().fetch({ traceId: TRACE_ID, sha256, maxBytes: 4 }));
    expect(error.reason).toBe('too_large');
    expect(error.status).toBe(200);
  });

  it('stops a body without content-length as soon as it passes maxBytes', async () => {
    linkRoute = link({ size: 1 });
    let written = 0;
    let ended = false;
    downloadRoute = (res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 7);
      // Far more than the limit; the client must stop reading long before the end.
      const write = () => {
        while (written < 64 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', write);
        }
        ended = true;
        res.end();
      };
      res.on('close', () => {
        written = Number.POSITIVE_INFINITY;
      });
      write();
    };
    const error = await failure(reader().fetch({ traceId: TRACE_ID, sha256, maxBytes: 100_000 }));
    expect(error.reason).toBe('too_large');
    expect(ended).toBe(false);
  });

  it('accepts a file of exactly maxBytes', async () => {
    const got = await reader().fetch({ traceId: TRACE_ID, sha256, maxBytes: bytes.length });
    expect(got.length).toBe(bytes.length);
  });

  it.each([
    [401, { error: { code: 'unauthorized', message: 'server says no' } }, 'forbidden', /HTTP 401/],
    [
      403,
      { error: { code: 'forbidden', message: 'server says no' } },
      'forbidden',
      /Read or Read and write key/,
    ],
    [404, { error: { code: 'missing', message: 'server says gone' } }, 'missing', /never uploaded/],
    [
      404,
      { error: { code: 'not_found', message: 'server says none' } },
      'not_found',
      /no file with this SHA-256/,
    ],
    [404, { message: 'server says plain 404' }, 'failed', /does not serve file downloads/],
    [503, { error: { code: 'unavailable', message: 'server says down' } }, 'unavailable', /try again later/],
    [500, { error: { code: 'internal', message: 'server says oops' } }, 'failed', /HTTP 500/],
    [429, { error: { code: 'rate_limited', message: 'server says slow' } }, 'failed', /HTTP 429/],
  ] as const)('maps a link answer %i %j to %s', async (status, body, reason, message) => {
    linkRoute = (res) => json(res, status, body);
    const error = await failure(reader().fetch({ traceId: TRACE_ID, sha256 }));
    expect(error.reason).toBe(reason);
    expect(error.status).toBe(status);
    expect(error.message).toMatch(message);
    expect(seen).toHaveLength(1);
  });

  it('does not follow a redirect of the link route', async () => {
    linkRoute = (res) => {
      res.writeHead(302, { location: `${origin}/elsewhere` });
      res.end();
    };
    const error = await failure(reader().fetch({ traceId: TRACE_ID, sha256 }));
    expect(error.reason).toBe('failed');
    expect(error.status).toBe(302);
    expect(seen).toHaveLength(1);
  });

  it.each([
    ['not JSON', (res: ServerResponse) => res.end('<html>server says hi</html>')],
    ['another SHA-256', link({ sha256: 'a'.repeat(64) })],
    ['no url', link({ url: undefined })],
    ['a non-HTTP url', link({ url: 'file:///etc/passwd' })],
    ['a negative size', link({ size: -1 })],
  ])('fails on a link answer with %s', async (_what, handler) => {
    linkRoute = handler;
    const error = await failure(reader().fetch({ traceId: TRACE_ID, sha256 }));
    expect(error.reason).toBe('failed');
    expect(error.message).toMatch(/not a download link/);
    expect(seen).toHaveLength(1);
  });

  it.each([
    [403, 'link_expired', 'forbidden', /expired before it was used/],
    [403, 'forbidden', 'forbidden', /link was refused/],
    [404, 'not_found', 'not_found', /names no stored file/],
    [404, 'missing', 'missing', /no longer stored/],
    [503, 'unavailable', 'unavailable', /could not read its file storage/],
    [502, 'bad_gateway', 'failed', /HTTP 502/],
  ] as const)('maps a download answer %i %s to %s', async (status, code, reason, message) => {
    downloadRoute = (res) => json(res, status, { error: { code, message: 'server says no' } });
    const error = await failure(reader().fetch({ traceId: TRACE_ID, sha256 }));
    expect(error.reason).toBe(reason);
    expect(error.status).toBe(status);
    expect(error.message).toMatch(message);
  });

  it('fails when the download connection is cut mid-body', async () => {
    downloadRoute = (res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write(Buffer.alloc(10));
      setImmediate(() => res.destroy());
    };
    const error = await failure(reader().fetch({ traceId: TRACE_ID, sha256 }));
    expect(error.reason).toBe('failed');
    expect(error.status).toBeUndefined();
  });

  it('rejects with the signal reason when aborted, before or during the call', async () => {
    const aborted = AbortSignal.abort(new Error('caller stopped'));
    await expect(reader().fetch({ traceId: TRACE_ID, sha256, signal: aborted })).rejects.toThrow(
      'caller stopped',
    );
    const controller = new AbortController();
    downloadRoute = (res) => {
      res.writeHead(200, { 'content-length': String(bytes.length) });
      res.write(bytes.subarray(0, 2));
      controller.abort(new Error('caller stopped later'));
    };
    await expect(reader().fetch({ traceId: TRACE_ID, sha256, signal: controller.signal })).rejects.toThrow(
      'caller stopped later',
    );
  });
});

describe('media reader options', () => {
  it('validates the reader options with the client rules', () => {
    expect(() => createMediaReader({ apiKey: '' })).toThrow(/apiKey must be a non-empty string/);
    expect(() => createMediaReader({ apiKey: KEY, baseUrl: 'http://example.com' })).toThrow(
      /baseUrl must use https/,
    );
    expect(() => createMediaReader({ apiKey: KEY, timeoutMillis: 5 })).toThrow(
      'timeoutMillis must be an integer from 100 to 60000; got 5',
    );
    expect(() => createMediaReader(null as never)).toThrow(
      'createMediaReader options must be an object; got null',
    );
  });

  it.each([
    [{ traceId: 'X'.repeat(32), sha256 }, /traceId must be 32 lowercase hex characters or a lowercase UUID/],
    [{ traceId: '0'.repeat(32), sha256 }, /not all zero; got "0{32}"/],
    [{ traceId: '00000000-0000-0000-0000-000000000000', sha256 }, /traceId must be/],
    [{ traceId: TRACE_ID, sha256: sha256.toUpperCase() }, /sha256 must be 64 lowercase hex characters/],
    [
      { traceId: TRACE_ID, sha256, spanId: '123' },
      'spanId must be 16 lowercase hex characters, not all zero; got "123"',
    ],
    [
      { traceId: TRACE_ID, sha256, maxBytes: 1.5 },
      'maxBytes must be an integer from 0 to 1000000000; got 1.5',
    ],
    [{ traceId: TRACE_ID, sha256, maxBytes: 1_000_000_001 }, /maxBytes must be an integer/],
    [{ traceId: TRACE_ID, sha256, signal: {} }, 'signal must be an AbortSignal; got an object'],
    [
      { snapshotId: 'a', sha256 },
      'snapshotId must be a lowercase UUID (the traceSnapshotId of a completed execution); got "a"',
    ],
    [{ snapshotId: SNAPSHOT_ID.toUpperCase(), sha256 }, /snapshotId must be a lowercase UUID/],
    [{ snapshotId: 42, sha256 }, /snapshotId must be a lowercase UUID .*; got 42/],
    [
      { traceId: TRACE_ID, snapshotId: SNAPSHOT_ID, sha256 },
      'traceId and snapshotId cannot both be given: pass traceId to read from the trace, or snapshotId to read from an evaluation trace snapshot',
    ],
    [
      { sha256 },
      'traceId or snapshotId is required: pass traceId to read from a trace, or snapshotId to read from an evaluation trace snapshot; got neither',
    ],
    [{ snapshotId: SNAPSHOT_ID, sha256, spanId: 'x' }, /spanId must be 16 lowercase hex characters/],
    [undefined, 'media.fetch options must be an object; got undefined'],
  ])('rejects fetch options %j before any request', async (options, message) => {
    await expect(reader().fetch(options as never)).rejects.toThrow(message);
    await expect(reader().fetch(options as never)).rejects.toBeInstanceOf(TypeError);
    expect(seen).toHaveLength(0);
  });

  it('accepts the service trace ID (a UUID)', async () => {
    const uuid = '4bf92f35-77b3-4da6-a3ce-929d0e0e4736';
    await reader().fetch({ traceId: uuid, sha256 });
    expect(seen[0]!.path).toBe(`/api/v1/traces/${uuid}/blobs/${sha256}`);
  });
});
