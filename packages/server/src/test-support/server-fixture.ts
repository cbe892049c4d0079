/**
 * Starts a real reference server for a test file and offers in-process request helpers.
 * Not part of the package's public API.
 * @module
 */
import { afterAll, beforeAll } from 'vitest';
import { type RunningServer, type StartServerOptions, startServer } from '../start-server.js';

/** A started server plus helpers; valid inside tests after `beforeAll`. */
export interface ServerFixture {
  readonly server: RunningServer;
  /** In-process request through the app's fetch handler, with `key` as Bearer when given. */
  request(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
  /** In-process JSON POST of an OTLP request to a signal route with the tracing key. */
  postJson(path: string, body: unknown, key?: string): Promise<Response>;
  /** GET a receipt (tracing key) for `traceId` with the expected span IDs. */
  receipt(traceId: string, expectedSpanIds?: readonly string[]): Promise<Response>;
}

/** Registers `beforeAll`/`afterAll` that start and close a server for the calling test file. */
export function useServer(options: StartServerOptions = {}): ServerFixture {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await startServer(options);
  });
  afterAll(async () => {
    await server?.close();
  });
  const fixture: ServerFixture = {
    get server() {
      if (server === undefined) throw new Error('the server starts in beforeAll');
      return server;
    },
    request(path, init = {}) {
      const { key, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key !== undefined) headers.set('authorization', `Bearer ${key}`);
      return Promise.resolve(fixture.server.app.request(path, { ...rest, headers }));
    },
    postJson(path, body, key = fixture.server.keys.tracing) {
      return fixture.request(path, {
        method: 'POST',
        key,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    },
    receipt(traceId, expectedSpanIds = []) {
      const query = new URLSearchParams(
        expectedSpanIds.map((id): [string, string] => ['expectedSpanId', id]),
      );
      return fixture.request(`/api/v1/traces/${traceId}/receipt?${query}`, {
        key: fixture.server.keys.tracing,
      });
    },
  };
  return fixture;
}
