import { describe, expect, it } from 'vitest';
import { ROUTE_ACCESS } from '../route-table.js';
import { useServer } from '../test-support/server-fixture.js';

const fx = useServer();

interface OpenApiDocument {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      { security?: unknown; responses: Record<string, unknown>; parameters?: { name: string }[] }
    >
  >;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
}

describe('/api/v1/openapi.json', () => {
  it('describes every route of the access table with bearer security, signed-link routes with none, world routes with the trial token', async () => {
    const res = await fx.request('/api/v1/openapi.json', { key: fx.server.keys.read });
    expect(res.status).toBe(200);
    const doc = (await res.json()) as OpenApiDocument;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.trialToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const access of Object.values(ROUTE_ACCESS)) {
      if (access.path === '/api/v1/openapi.json') continue;
      const operation = doc.paths[access.path]?.[access.method.toLowerCase()];
      expect(operation, `${access.method} ${access.path}`).toBeDefined();
      if (access.auth === 'signed-link') {
        expect(operation?.security).toEqual([]);
        expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(['403', '404']));
        continue;
      }
      if (access.auth === 'trial-token') {
        expect(operation?.security).toEqual([{ trialToken: [] }]);
        expect(Object.keys(operation?.responses ?? {})).toEqual(
          expect.arrayContaining(['200', '401', '403']),
        );
        continue;
      }
      expect(operation?.security).toEqual([{ bearer: [] }]);
      expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(['200', '401', '403']));
    }
  });

  it('generates the receipt and ingest schemas from the validating zod schemas', async () => {
    const doc = (await (
      await fx.request('/api/v1/openapi.json', { key: fx.server.keys.tracing })
    ).json()) as OpenApiDocument;
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        'TraceReceipt',
        'ProjectConnection',
        'OtlpTracesRequest',
        'OtlpLogsRequest',
        'Error',
      ]),
    );
    const receipt = doc.paths['/api/v1/traces/{otelTraceId}/receipt']?.get;
    expect(receipt?.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining(['otelTraceId', 'expectedSpanId']),
    );
    expect(Object.keys(doc.paths['/api/v1/otlp/v1/traces']?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '400', '413', '415']),
    );
  });

  it('describes the media routes with the schemas that validate them', async () => {
    const doc = (await (
      await fx.request('/api/v1/openapi.json', { key: fx.server.keys.read })
    ).json()) as OpenApiDocument;
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        'BlobReservationRequest',
        'BlobReservation',
        'BlobRef',
        'BlobCompletionRequest',
        'BlobStored',
        'BlobDownloadLink',
      ]),
    );
    expect(Object.keys(doc.paths['/api/v1/otlp/blobs']?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '400', '413']),
    );
    expect(Object.keys(doc.paths['/api/v1/blobs/uploads/{reservationId}']?.put?.responses ?? {})).toEqual(
      expect.arrayContaining(['201', '400', '403', '412']),
    );
    expect(Object.keys(doc.paths['/api/v1/otlp/blobs/complete']?.post?.responses ?? {})).toContain('409');
    const link = doc.paths['/api/v1/traces/{traceId}/blobs/{sha256}']?.get;
    expect(link?.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining(['traceId', 'sha256', 'spanId']),
    );
    expect(Object.keys(link?.responses ?? {})).toEqual(expect.arrayContaining(['200', '404', '503']));
  });

  it('answers unknown routes with a JSON 404', async () => {
    const res = await fx.request('/api/v1/nope', { key: fx.server.keys.tracing });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'not_found', message: 'No such route.' } });
  });
});
