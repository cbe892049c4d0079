/**
 * The server's log over real HTTP: the request log (one entry per request: time, method, route
 * pattern, status, duration, body sizes; never a key, a query value or content), and the error log
 * (an aborted upload is not an error; a real unhandled error is written with its type, message and
 * stack, sanitized). Clients: `fetch` (undici), Node's `http.request`, and the official OTLP/HTTP
 * trace exporter.
 */
import { request as httpRequest } from 'node:http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { waitUntil } from '@svc-run/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatRequestLogLine, type RequestLogEntry } from '../http/request-log.js';
import { type RunningServer, startServer } from '../start-server.js';
import { sha256Of, type UploadTicket } from '../test-support/media-fixtures.js';
import { jsonSpan, newSpanId, newTraceId, str, tracesRequest } from '../test-support/otlp-fixtures.js';
import { EXPORT_FAILED, recordingSpanExporter } from './official-exporters-helpers.js';

const TRACES = '/api/v1/otlp/v1/traces';
/** Content no log line may hold. */
const SECRET_CONTENT = 'the patient said her PIN is 4417';

let server: RunningServer;
const entries: RequestLogEntry[] = [];
const errors: string[] = [];

beforeAll(async () => {
  server = await startServer({
    requestLog: (entry) => entries.push(entry),
    errorLog: (text) => errors.push(text),
    faultInjection: true, // only for `faults.seen`: no fault is injected
  });
});
afterAll(() => server?.close());
beforeEach(() => {
  entries.length = 0;
  errors.length = 0;
});

/** Every log text so far: request log lines and error log texts. */
function logText(): string {
  return [...entries.map(formatRequestLogLine), ...errors].join('\n');
}

function exportBody(traceId: string) {
  return JSON.stringify(
    tracesRequest([jsonSpan(traceId, { attributes: [str('gen_ai.input.messages', SECRET_CONTENT)] })]),
  );
}

async function postExport(body: string, key = server.keys.tracing): Promise<Response> {
  return fetch(`${server.origin}${TRACES}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body,
  });
}

/** The entry of the next request to finish whose route is `route`. */
function entryFor(route: string, status?: number): Promise<RequestLogEntry> {
  return waitUntil(
    () => entries.find((e) => e.route === route && (status === undefined || e.status === status)),
    `a request log entry for ${route}${status === undefined ? '' : ` (${status})`}`,
  );
}

describe('the request log', () => {
  it('writes one entry per request: time, method, route pattern, status, duration and body sizes', async () => {
    const traceId = newTraceId();
    const body = exportBody(traceId);
    const started = Date.now();
    const res = await postExport(body);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{}');
    const entry = await entryFor(TRACES);
    expect(entry).toMatchObject({
      method: 'POST',
      route: TRACES,
      status: 200,
      requestBytes: Buffer.byteLength(body),
    });
    // The answer's status line, headers and its body of 2 bytes.
    expect(entry.responseBytes).toBeGreaterThan(2 + 'HTTP/1.1 200 OK\r\n\r\n'.length);
    expect(entry.responseBytes).toBeLessThan(1024);
    expect(entry.error).toBeUndefined();
    expect(Date.parse(entry.time)).toBeGreaterThanOrEqual(started - 1000);
    expect(entry.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(entry.durationMs).toBeGreaterThanOrEqual(0);
    expect(formatRequestLogLine(entry)).toMatch(
      new RegExp(`^\\S+Z POST /api/v1/otlp/v1/traces 200 [\\d.]+ms in=${Buffer.byteLength(body)} out=\\d+$`),
    );

    // The route's pattern, not the path: the trace ID and the query stay out.
    const receipt = await fetch(
      `${server.origin}/api/v1/traces/${traceId}/receipt?expectedSpanId=${newSpanId()}`,
      { headers: { authorization: `Bearer ${server.keys.tracing}` } },
    );
    expect(receipt.status).toBe(200);
    await receipt.arrayBuffer();
    expect(await entryFor('/api/v1/traces/{otelTraceId}/receipt')).toMatchObject({
      method: 'GET',
      status: 200,
      requestBytes: 0,
    });
    expect(entries).toHaveLength(2);
    expect(logText()).not.toContain(traceId);
  });

  it('leaves a line for an export that fails, with the status and the error code (official OTLP exporter)', async () => {
    const { exporter, results } = recordingSpanExporter(
      new OTLPTraceExporter({
        url: `${server.origin}${TRACES}`,
        headers: { Authorization: 'Bearer svc_tracing_not-a-key-of-this-project' },
      }),
    );
    const provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'server-log-e2e' }),
      spanProcessors: [new SimpleSpanProcessor({ exporter })],
    });
    provider.getTracer('server-log-e2e').startSpan('chat').end();
    await expect(provider.forceFlush()).rejects.toBeDefined();
    await provider.shutdown();
    expect(results.map((r) => r.code)).toEqual([EXPORT_FAILED]);
    const entry = await entryFor(TRACES);
    expect(entry).toMatchObject({ method: 'POST', status: 401, error: 'unauthorized' });

    // Bodies the service refuses leave their line too.
    expect((await postExport('{"resourceSpans": 7}')).status).toBe(400);
    expect(await entryFor(TRACES, 400)).toMatchObject({ error: 'invalid_request' });
  });

  it('never writes a key, a query value (a signed link’s signature), a path’s values or content', async () => {
    const traceId = newTraceId();
    expect((await postExport(exportBody(traceId))).status).toBe(200);
    // A signed-link upload: the URL's query holds the signature.
    const bytes = Buffer.from(SECRET_CONTENT);
    const reserved = await fetch(`${server.origin}/api/v1/otlp/blobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.keys.tracing}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        traceId,
        sha256: sha256Of(bytes),
        byteSize: bytes.length,
        contentType: 'text/plain',
        key: 'input.value#',
      }),
    });
    const ticket = (await reserved.json()) as UploadTicket;
    const put = await fetch(ticket.url, { method: 'PUT', headers: ticket.headers, body: bytes });
    expect(put.status).toBe(201);
    await put.arrayBuffer();
    const upload = await entryFor('/api/v1/blobs/uploads/{reservationId}');
    expect(upload).toMatchObject({ method: 'PUT', status: 201, requestBytes: bytes.length });
    // A key sent where no route is, and a wrong key on a route.
    const wrongKey = `${server.keys.tracing.slice(0, -4)}abcd`;
    await (await fetch(`${server.origin}/${server.keys.read}?key=${server.keys.readWrite}`)).arrayBuffer();
    await (await postExport(exportBody(traceId), wrongKey)).arrayBuffer();
    expect(await entryFor('-')).toMatchObject({ method: 'GET', status: 404 });
    await entryFor(TRACES, 401);

    const text = logText();
    const { searchParams, pathname } = new URL(ticket.url);
    expect(searchParams.size).toBeGreaterThan(0);
    const secrets = [
      ...Object.values(server.keys),
      wrongKey,
      ...searchParams.values(),
      pathname.split('/').at(-1)!,
      traceId,
      SECRET_CONTENT,
      sha256Of(bytes),
    ];
    for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it('records a request whose client went away mid-body as 499, and logs no error for it', async () => {
    const req = httpRequest(`${server.origin}${TRACES}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.keys.tracing}`,
        'content-type': 'application/json',
        'content-length': String(4 * 1024 * 1024),
      },
    });
    req.on('error', () => undefined); // destroyed below
    const seen = server.faults!.seen('otlp.traces');
    req.write(Buffer.alloc(256 * 1024, 0x20));
    await waitUntil(() => server.faults!.seen('otlp.traces') > seen, 'the request to reach the server');
    req.destroy();
    expect(await entryFor(TRACES)).toMatchObject({ status: 499, requestBytes: 4 * 1024 * 1024 });
    expect(errors).toEqual([]);
  });

  it('goes on serving when the sink throws', async () => {
    const failing = await startServer({
      requestLog: () => {
        throw new Error(SECRET_CONTENT);
      },
    });
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${failing.origin}/api/v1/projects/current`, {
          headers: { authorization: `Bearer ${failing.keys.read}` },
        });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
      await waitUntil(() => consoleError.mock.calls.length >= 2, 'the sink failures to be reported');
      expect(consoleError.mock.calls.flat().join('\n')).not.toContain(SECRET_CONTENT);
    } finally {
      consoleError.mockRestore();
      await failing.close();
    }
  });

  it('is off unless asked for; `requestLog: true` writes lines to stdout', async () => {
    const write = vi.spyOn(process.stdout, 'write');
    const quiet = await startServer();
    const loud = await startServer({ requestLog: true });
    try {
      for (const s of [quiet, loud]) {
        const res = await fetch(`${s.origin}/api/v1/projects/current`, {
          headers: { authorization: `Bearer ${s.keys.read}` },
        });
        await res.arrayBuffer();
      }
      const lines = () =>
        write.mock.calls
          .map((call) => String(call[0]))
          .filter((text) => text.includes(' /api/v1/projects/current '));
      await waitUntil(() => lines().length > 0, 'the loud server’s line');
      expect(lines()).toHaveLength(1);
      expect(lines()[0]).toMatch(/^\S+Z GET \/api\/v1\/projects\/current 200 [\d.]+ms in=0 out=\d+\n$/);
    } finally {
      write.mockRestore();
      await quiet.close();
      await loud.close();
    }
  });
});

describe('the error log', () => {
  it('writes a real unhandled error with its type, message and stack, never a key, query value or content', async () => {
    const app = await startServer({ errorLog: (text) => errors.push(text) });
    try {
      // A defect: a handler that fails in ways no route turns into an answer.
      app.app.post('/api/v1/defect/:id', async (c) => {
        const text = await c.req.text();
        try {
          JSON.parse(text.slice(1));
        } catch (error) {
          throw new TypeError(`could not read the value for ${c.req.header('authorization')}`, {
            cause: error,
          });
        }
        return c.json({});
      });
      const res = await fetch(
        `${app.origin}/api/v1/defect/${newTraceId()}?signature=f00dfeed${'0'.repeat(56)}`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${app.keys.tracing}` },
          body: `{${SECRET_CONTENT}`,
        },
      );
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: { code: 'internal', message: 'Internal error.' } });
      expect(errors).toHaveLength(1);
      const [text] = errors as [string];
      expect(text).toMatch(
        /^svc server: unhandled error in POST \/api\/v1\/defect\/\{id\}: TypeError: could not read the value for Bearer \[redacted\]\n/,
      );
      expect(text).toMatch(/\n {4}at .+server-log\.test\.ts:\d+:\d+/); // the stack
      expect(text).toMatch(/\n {2}caused by: SyntaxError: /);
      for (const secret of [...Object.values(app.keys), SECRET_CONTENT, 'PIN', '4417', 'f00dfeed']) {
        expect(text).not.toContain(secret);
      }
    } finally {
      await app.close();
    }
  });
});
