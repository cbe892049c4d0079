/**
 * The reference server for the AI SDK adapter tests, with clients on it and readers of what it
 * stored.
 * @module
 */
import { type RunningServer, startServer } from '@svc-run/server';
import { afterAll, beforeAll } from 'vitest';
import { createSvcSafe, type SafeSvc } from '../../client/create-svc-safe.js';
import { createSvc, type SvcClient } from '../../client/svc-client.js';

/** A span as stored, with its attributes as a plain object. */
export interface StoredSpan {
  name: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, unknown>;
}

/** Starts a server for the calling test file; the returned functions use it. */
export function useReferenceServer() {
  let server: RunningServer;
  const clients: { shutdown(): Promise<unknown> }[] = [];
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.shutdown()));
    await server.close();
  });
  const options = (captureContent: boolean) => ({
    apiKey: server.keys.tracing,
    baseUrl: server.origin,
    serviceName: 'ai-sdk-e2e',
    captureContent,
    // The longest request timeout: a loaded machine only makes a test slower, never red.
    timeoutMillis: 60_000,
  });
  return {
    client(captureContent: boolean): SvcClient {
      const svc = createSvc(options(captureContent));
      clients.push(svc);
      return svc;
    },
    safeClient(captureContent: boolean): SafeSvc {
      const svc = createSvcSafe(options(captureContent));
      clients.push(svc);
      return svc;
    },
    spans(traceId: string): StoredSpan[] {
      return server.traceStore.listSpans(traceId).map((s) => ({
        name: s.name,
        spanId: s.spanId,
        parentSpanId: s.parentSpanId,
        attributes: Object.fromEntries(s.attributes.map((a) => [a.key, Object.values(a.value)[0]])),
      }));
    },
  };
}

/** The only stored span named `name` (fails the test when there is not exactly one). */
export function only(spans: StoredSpan[], name: string): StoredSpan {
  const found = spans.filter((s) => s.name === name);
  if (found.length !== 1) throw new Error(`expected one ${name} span, found ${found.length}`);
  return found[0]!;
}
