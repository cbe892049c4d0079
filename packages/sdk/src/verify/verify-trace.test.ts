import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RunningServer, startServer } from '@svc-run/server';
import { waitUntil } from '@svc-run/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SvcTraceVerificationError } from '../errors/svc-trace-verification-error.js';
import type { ServiceEndpoint } from '../options/svc-options.js';
import { type VerifyClock, verifyTrace, verifyTraceWithClock } from './verify-trace.js';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ faultInjection: true });
});

afterAll(async () => {
  await server.close();
});

afterEach(() => {
  server.faults!.clear();
});

/** The longest request timeout allowed: a loaded machine only makes a test slower, never red. */
function endpoint(overrides: Partial<ServiceEndpoint> = {}): ServiceEndpoint {
  return { baseUrl: server.origin, apiKey: server.keys.tracing, timeoutMillis: 60_000, ...overrides };
}

/** The longest deadline `verifyTrace` allows, for the tests that expect it to verify. */
const LONGEST = 60_000;

/**
 * A clock on which time stands still while `verifyTrace` polls and passes only in its waits between
 * polls, each as long as asked: its deadline passes after the polls the deadline leaves room for,
 * however slow the machine.
 */
function waitsOnlyClock(): VerifyClock {
  let now = 0;
  return {
    now: () => now,
    sleep: async (millis) => {
      now += millis;
    },
  };
}

/**
 * Waits until `count` more receipt requests than `before` have reached the server, or until
 * `verification` settled without them (the test's assertions then say what went wrong).
 */
async function receiptPolls(before: number, count: number, verification: Promise<unknown>): Promise<void> {
  let settled = false;
  verification.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await waitUntil(
    () => settled || server.faults!.seen('traces.receipt') >= before + count,
    `${count} receipt requests to reach the server`,
  );
}

const traceId = (): string => randomBytes(16).toString('hex');
const spanId = (): string => randomBytes(8).toString('hex');

/** Stores spans of `trace` carrying only a model attribute, through the OTLP JSON route. */
async function ingest(trace: string, spanIds: string[]): Promise<void> {
  const spans = spanIds.map((id) => ({
    traceId: trace,
    spanId: id,
    name: 'chat',
    startTimeUnixNano: '1',
    endTimeUnixNano: '2',
    attributes: [{ key: 'gen_ai.request.model', value: { stringValue: 'm' } }],
  }));
  const response = await fetch(`${server.origin}/api/v1/otlp/v1/traces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.keys.tracing}`, 'content-type': 'application/json' },
    body: JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] }),
  });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
}

/** A plain HTTP server answering every request through `handle`. */
async function plainServer(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ origin: string; close(): Promise<void> }> {
  const plain = createServer(handle);
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  const { port } = plain.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        plain.closeAllConnections();
        plain.close(() => resolve());
      }),
  };
}

/** Runs `verifyTrace` against a plain server and returns the verification error it throws. */
async function failureFrom(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<SvcTraceVerificationError> {
  const plain = await plainServer(handle);
  try {
    return await rejection(
      verifyTrace(endpoint({ baseUrl: plain.origin }), traceId(), { timeoutMillis: LONGEST }),
    );
  } finally {
    await plain.close();
  }
}

async function rejection(promise: Promise<unknown>): Promise<SvcTraceVerificationError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SvcTraceVerificationError);
  const failure = error as SvcTraceVerificationError;
  expect(failure.message).not.toContain(server.keys.tracing);
  return failure;
}

describe('verifyTrace against the service', () => {
  it('verifies stored spans and fields', async () => {
    const trace = traceId();
    const spans = [spanId(), spanId()];
    await ingest(trace, spans);
    const result = await verifyTrace(endpoint(), trace, {
      expectedSpanIds: spans,
      requiredFields: ['model'],
      timeoutMillis: LONGEST,
    });
    expect(result.verified).toBe(true);
    expect(result.receipt).toEqual({
      traceId: trace,
      spanCount: 2,
      revision: 1,
      fields: expect.objectContaining({ model: true, input: false }),
      matchedSpanIds: spans,
      missingSpanIds: [],
      traceUrl: `${server.origin}/traces/${trace}`,
    });
  });

  it('collapses duplicate expected span IDs', async () => {
    const trace = traceId();
    const span = spanId();
    await ingest(trace, [span]);
    const result = await verifyTrace(endpoint(), trace, {
      expectedSpanIds: [span, span],
      timeoutMillis: LONGEST,
    });
    expect(result.verified).toBe(true);
    expect(result.receipt?.matchedSpanIds).toEqual([span]);
  });

  it('polls through "trace not found" until late spans arrive', async () => {
    const trace = traceId();
    const span = spanId();
    const before = server.faults!.seen('traces.receipt');
    const verification = verifyTrace(endpoint(), trace, { expectedSpanIds: [span], timeoutMillis: LONGEST });
    // A second poll has arrived: the first was answered "trace not found" before the spans exist.
    await receiptPolls(before, 2, verification);
    await ingest(trace, [span]);
    const result = await verification;
    expect(result.verified).toBe(true);
    expect(result.receipt?.matchedSpanIds).toEqual([span]);
  });

  it('polls a partial receipt until the missing span arrives', async () => {
    const trace = traceId();
    const [first, second] = [spanId(), spanId()];
    await ingest(trace, [first]);
    const before = server.faults!.seen('traces.receipt');
    const verification = verifyTrace(endpoint(), trace, {
      expectedSpanIds: [first, second],
      timeoutMillis: LONGEST,
    });
    // A second poll has arrived: the first was answered with the partial receipt.
    await receiptPolls(before, 2, verification);
    await ingest(trace, [second]);
    const result = await verification;
    expect(result.verified).toBe(true);
    expect(result.receipt?.spanCount).toBe(2);
  });

  it('returns the partial receipt when a span is still missing at the deadline', async () => {
    const trace = traceId();
    const [stored, missing] = [spanId(), spanId()];
    await ingest(trace, [stored]);
    // The deadline passes on the test's clock, after polls that each read the partial receipt.
    const result = await verifyTraceWithClock(
      endpoint(),
      trace,
      { expectedSpanIds: [stored, missing], timeoutMillis: LONGEST },
      waitsOnlyClock(),
    );
    expect(result.verified).toBe(false);
    expect(result.receipt).toMatchObject({
      traceId: trace,
      spanCount: 1,
      matchedSpanIds: [stored],
      missingSpanIds: [missing],
    });
  });

  it('returns the partial receipt when a required field is absent at the deadline', async () => {
    const trace = traceId();
    const span = spanId();
    await ingest(trace, [span]);
    const result = await verifyTraceWithClock(
      endpoint(),
      trace,
      { expectedSpanIds: [span], requiredFields: ['model', 'input'], timeoutMillis: LONGEST },
      waitsOnlyClock(),
    );
    expect(result.verified).toBe(false);
    expect(result.receipt?.fields).toMatchObject({ model: true, input: false });
  });

  it('returns a null receipt when the trace never arrives', async () => {
    const result = await verifyTrace(endpoint(), traceId(), { timeoutMillis: 600 });
    expect(result).toEqual({ verified: false, receipt: null });
  });

  it('honours Retry-After on 429, then verifies', async () => {
    const trace = traceId();
    const span = spanId();
    await ingest(trace, [span]);
    server.faults!.inject('traces.receipt', { kind: 'status', status: 429, retryAfterSeconds: 1 });
    const result = await verifyTrace(endpoint(), trace, { expectedSpanIds: [span], timeoutMillis: LONGEST });
    expect(result.verified).toBe(true);
    expect(server.faults!.pending('traces.receipt')).toBe(0);
  });

  it('retries 503 twice, then verifies', async () => {
    const trace = traceId();
    const span = spanId();
    await ingest(trace, [span]);
    server.faults!.inject('traces.receipt', { kind: 'status', status: 503, retryAfterSeconds: 0 }, 2);
    const result = await verifyTrace(endpoint(), trace, { expectedSpanIds: [span], timeoutMillis: LONGEST });
    expect(result.verified).toBe(true);
    expect(server.faults!.pending('traces.receipt')).toBe(0);
  });

  it('returns verified: false when 429 lasts until the deadline', async () => {
    const trace = traceId();
    await ingest(trace, [spanId()]);
    // Every poll within the deadline meets the 429, even one a previous test left in flight.
    server.faults!.inject('traces.receipt', { kind: 'status', status: 429, retryAfterSeconds: 30 }, 50);
    const result = await verifyTrace(endpoint(), trace, { timeoutMillis: 500 });
    expect(result).toEqual({ verified: false, receipt: null });
  });

  it('returns verified: false when the deadline cuts a hanging request short', async () => {
    const trace = traceId();
    await ingest(trace, [spanId()]);
    // Held until afterEach releases it: only the deadline can end the request.
    server.faults!.inject('traces.receipt', { kind: 'hang' });
    const result = await verifyTrace(endpoint(), trace, { timeoutMillis: 300 });
    expect(result).toEqual({ verified: false, receipt: null });
  });

  it('works with a Read key (receipts allow Read)', async () => {
    const trace = traceId();
    const span = spanId();
    await ingest(trace, [span]);
    const result = await verifyTrace(endpoint({ apiKey: server.keys.read }), trace, {
      expectedSpanIds: [span],
      timeoutMillis: LONGEST,
    });
    expect(result.verified).toBe(true);
  });

  it('fails with "unauthorized" for a key that is not valid', async () => {
    const apiKey = 'svc_tracing_not-a-real-key-0123456789';
    const error = await rejection(verifyTrace(endpoint({ apiKey }), traceId(), { timeoutMillis: LONGEST }));
    expect(error.code).toBe('unauthorized');
    expect(error.status).toBe(401);
    expect(error.message).not.toContain(apiKey);
  });

  it('fails with "connection_failed" when the connection is reset', async () => {
    server.faults!.inject('traces.receipt', { kind: 'reset' });
    const error = await rejection(verifyTrace(endpoint(), traceId(), { timeoutMillis: LONGEST }));
    expect(error.code).toBe('connection_failed');
    expect(error.status).toBeUndefined();
  });

  it('fails with "connection_failed" when a request times out before the deadline', async () => {
    // Held until afterEach releases it: only the request's own 200 ms can end it, long before the
    // deadline (the longest there is).
    server.faults!.inject('traces.receipt', { kind: 'hang' });
    const error = await rejection(
      verifyTrace(endpoint({ timeoutMillis: 200 }), traceId(), { timeoutMillis: LONGEST }),
    );
    expect(error.code).toBe('connection_failed');
    expect(error.message).toContain('did not answer within 200 ms');
  });
});

describe('verifyTrace against other answers', () => {
  it('fails with "redirect" on a 302, without following it', async () => {
    let requests = 0;
    const error = await failureFrom((_request, response) => {
      requests++;
      response.writeHead(302, { location: '/elsewhere' }).end();
    });
    expect(error.code).toBe('redirect');
    expect(error.status).toBe(302);
    expect(requests).toBe(1);
  });

  it('fails with "malformed_response" on a body that is not JSON', async () => {
    const error = await failureFrom((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('not json, secret body');
    });
    expect(error.code).toBe('malformed_response');
    expect(error.status).toBe(200);
    expect(error.message).not.toContain('secret body');
  });

  it('fails with "malformed_response" on JSON that is not a receipt', async () => {
    const error = await failureFrom((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"traceId":"x"}');
    });
    expect(error.code).toBe('malformed_response');
  });

  it('fails with "malformed_response" on a body over 64 KiB', async () => {
    const error = await failureFrom((request, response) => {
      const trace = /\/traces\/([0-9a-f]{32})\//.exec(request.url ?? '')?.[1];
      const receipt = {
        traceId: trace,
        spanCount: 1,
        revision: 1,
        fields: {},
        matchedSpanIds: [],
        missingSpanIds: [],
        traceUrl: 'x'.repeat(70 * 1024),
      };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(receipt));
    });
    expect(error.code).toBe('malformed_response');
    expect(error.message).toContain('64 KiB');
  });

  it('fails with "malformed_response" on a chunked body over 64 KiB', async () => {
    const error = await failureFrom((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0; i < 20; i++) response.write('x'.repeat(8 * 1024));
      response.end();
    });
    expect(error.code).toBe('malformed_response');
  });

  it('fails with "unsupported_endpoint" on a 404 that is not the service\'s', async () => {
    const error = await failureFrom((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>');
    });
    expect(error.code).toBe('unsupported_endpoint');
    expect(error.status).toBe(404);
  });

  it('fails with "forbidden" on 403 and "http_error" on another status', async () => {
    const forbidden = await failureFrom((_request, response) => {
      response.writeHead(403).end();
    });
    expect([forbidden.code, forbidden.status]).toEqual(['forbidden', 403]);
    const other = await failureFrom((_request, response) => {
      response.writeHead(500).end();
    });
    expect([other.code, other.status]).toEqual(['http_error', 500]);
  });

  it('fails with "connection_failed" when nothing listens', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const error = await rejection(
      verifyTrace(endpoint({ baseUrl: `http://127.0.0.1:${port}` }), traceId(), { timeoutMillis: LONGEST }),
    );
    expect(error.code).toBe('connection_failed');
    expect(error.status).toBeUndefined();
    expect(error.message).toContain('ECONNREFUSED');
  });
});

describe('verifyTrace arguments', () => {
  const valid = 'a'.repeat(32);
  const cases: Array<[string, unknown, unknown, string]> = [
    [
      'a short trace ID',
      'abc',
      undefined,
      'traceId must be 32 lowercase hex characters, not all zero; got "abc"',
    ],
    [
      'an uppercase trace ID',
      'A'.repeat(32),
      undefined,
      `traceId must be 32 lowercase hex characters, not all zero; got "${'A'.repeat(32)}"`,
    ],
    [
      'an all-zero trace ID',
      '0'.repeat(32),
      undefined,
      `traceId must be 32 lowercase hex characters, not all zero; got "${'0'.repeat(32)}"`,
    ],
    [
      'a trace ID that is not a string',
      42,
      undefined,
      'traceId must be 32 lowercase hex characters, not all zero; got 42',
    ],
    ['options that are not an object', valid, 'fast', 'options must be an object; got "fast"'],
    [
      'expectedSpanIds not an array',
      valid,
      { expectedSpanIds: 'b'.repeat(16) },
      `expectedSpanIds must be an array of span IDs; got "${'b'.repeat(16)}"`,
    ],
    [
      'a short span ID',
      valid,
      { expectedSpanIds: ['b'.repeat(16), 'bb'] },
      'expectedSpanIds[1] must be 16 lowercase hex characters, not all zero; got "bb"',
    ],
    [
      'an all-zero span ID',
      valid,
      { expectedSpanIds: ['0'.repeat(16)] },
      `expectedSpanIds[0] must be 16 lowercase hex characters, not all zero; got "${'0'.repeat(16)}"`,
    ],
    [
      'a span ID that is not a string',
      valid,
      { expectedSpanIds: [null] },
      'expectedSpanIds[0] must be 16 lowercase hex characters, not all zero; got null',
    ],
    [
      'more than 100 unique span IDs',
      valid,
      { expectedSpanIds: Array.from({ length: 101 }, (_, i) => (i + 1).toString(16).padStart(16, '0')) },
      'expectedSpanIds must hold at most 100 unique span IDs; got 101',
    ],
    [
      'requiredFields not an array',
      valid,
      { requiredFields: 'model' },
      'requiredFields must be an array of field names; got "model"',
    ],
    [
      'an empty field name',
      valid,
      { requiredFields: ['model', ''] },
      'requiredFields[1] must be a nonempty string; got an empty string',
    ],
    [
      'a field name that is not a string',
      valid,
      { requiredFields: [1] },
      'requiredFields[0] must be a nonempty string; got 1',
    ],
    [
      'a duplicate field name',
      valid,
      { requiredFields: ['model', 'input', 'model'] },
      'requiredFields must hold unique field names; got "model" more than once',
    ],
    [
      'a zero timeout',
      valid,
      { timeoutMillis: 0 },
      'timeoutMillis must be a positive finite number of at most 60000; got 0',
    ],
    [
      'a negative timeout',
      valid,
      { timeoutMillis: -1 },
      'timeoutMillis must be a positive finite number of at most 60000; got -1',
    ],
    [
      'an infinite timeout',
      valid,
      { timeoutMillis: Number.POSITIVE_INFINITY },
      'timeoutMillis must be a positive finite number of at most 60000; got Infinity',
    ],
    [
      'a NaN timeout',
      valid,
      { timeoutMillis: Number.NaN },
      'timeoutMillis must be a positive finite number of at most 60000; got NaN',
    ],
    [
      'a timeout over 60000',
      valid,
      { timeoutMillis: 60_001 },
      'timeoutMillis must be a positive finite number of at most 60000; got 60001',
    ],
    [
      'a timeout that is not a number',
      valid,
      { timeoutMillis: '1000' },
      'timeoutMillis must be a positive finite number of at most 60000; got "1000"',
    ],
  ];

  it.each(cases)('rejects %s', async (_name, trace, options, message) => {
    const call = verifyTrace(endpoint(), trace as string, options as never);
    await expect(call).rejects.toThrow(TypeError);
    await expect(call).rejects.toThrow(message);
    await expect(call).rejects.toSatisfy((error: Error) => error.message === message);
  });

  it('accepts exactly 100 unique span IDs, duplicates collapsed', async () => {
    const ids = Array.from({ length: 100 }, (_, i) => (i + 1).toString(16).padStart(16, '0'));
    const result = await verifyTrace(endpoint(), traceId(), {
      expectedSpanIds: [...ids, ids[0]!],
      timeoutMillis: 200,
    });
    expect(result).toEqual({ verified: false, receipt: null });
  });
});
