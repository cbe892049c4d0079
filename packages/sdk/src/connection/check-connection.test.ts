import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RunningServer, startServer } from '@svc-run/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SvcConnectionError } from '../errors/svc-connection-error.js';
import type { ServiceEndpoint } from '../options/svc-options.js';
import { checkConnection } from './check-connection.js';

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

/** The longest timeout allowed: a loaded machine only makes a test slower, never red. */
function endpoint(overrides: Partial<ServiceEndpoint> = {}): ServiceEndpoint {
  return { baseUrl: server.origin, apiKey: server.keys.tracing, timeoutMillis: 60_000, ...overrides };
}

async function rejection(promise: Promise<unknown>): Promise<SvcConnectionError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SvcConnectionError);
  return error as SvcConnectionError;
}

/** A plain HTTP server answering every request with `status` and `body`. */
async function answering(status: number, body: string): Promise<{ origin: string; close(): Promise<void> }> {
  const plain: Server = createServer((_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
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

/** An origin nothing listens on. */
async function closedOrigin(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe('checkConnection', () => {
  it('returns the project of the key', async () => {
    await expect(checkConnection(endpoint())).resolves.toEqual(server.project);
  });

  it('works with every preset that may check the project', async () => {
    for (const apiKey of [server.keys.read, server.keys.readWrite, server.keys.setup]) {
      await expect(checkConnection(endpoint({ apiKey }))).resolves.toEqual(server.project);
    }
  });

  it('rejects a wrong key with status 401 and says how to fix it, without the key', async () => {
    const apiKey = 'svc_tracing_not-a-real-key-0123456789';
    const error = await rejection(checkConnection(endpoint({ apiKey })));
    expect(error.status).toBe(401);
    expect(error.message).toContain('HTTP 401');
    expect(error.message).toContain('revoked');
    expect(error.message).toContain('baseUrl');
    expect(error.message).toContain(server.origin);
    expect(error.message).not.toContain(apiKey);
    expect(String(error.stack)).not.toContain(apiKey);
  });

  it('reports an unreachable origin without a status', async () => {
    const origin = await closedOrigin();
    const error = await rejection(checkConnection(endpoint({ baseUrl: origin })));
    expect(error.status).toBeUndefined();
    expect(error.message).toContain(`Could not connect to the service at ${origin}`);
    expect(error.message).not.toContain(server.keys.tracing);
  });

  it('reports a timeout without a status', async () => {
    // Held until afterEach releases it: only the timeout can end the check.
    server.faults!.inject('projects.current', { kind: 'hang' });
    const error = await rejection(checkConnection(endpoint({ timeoutMillis: 200 })));
    expect(error.status).toBeUndefined();
    expect(error.message).toContain('timed out');
    expect(error.message).toContain(server.origin);
  });

  it('reports another HTTP status with that status', async () => {
    server.faults!.inject('projects.current', { kind: 'status', status: 503 });
    const error = await rejection(checkConnection(endpoint()));
    expect(error.status).toBe(503);
    expect(error.message).toContain('HTTP 503');
  });

  it('reports a reset connection as a connection error', async () => {
    server.faults!.inject('projects.current', { kind: 'reset' });
    const error = await rejection(checkConnection(endpoint()));
    expect(error.status).toBeUndefined();
    expect(error.message).toContain('Could not connect');
  });

  it('reports a body that is not JSON as an invalid response', async () => {
    const plain = await answering(200, 'not json');
    try {
      const error = await rejection(checkConnection(endpoint({ baseUrl: plain.origin })));
      expect(error.message).toContain('invalid response');
      expect(error.message).not.toContain('not json');
    } finally {
      await plain.close();
    }
  });

  it('reports JSON of the wrong shape as an invalid response', async () => {
    const plain = await answering(200, JSON.stringify({ id: 'p', name: 'n', organizationId: 'o' }));
    try {
      const error = await rejection(checkConnection(endpoint({ baseUrl: plain.origin })));
      expect(error.message).toContain('invalid response');
    } finally {
      await plain.close();
    }
  });
});
