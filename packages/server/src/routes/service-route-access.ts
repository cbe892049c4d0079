/**
 * The rows of the route table (`route-table.ts`) for the service's own routes: the project check,
 * OTLP ingest, receipts and the OpenAPI document.
 * @module
 */
import type { RouteAccess } from '../auth/key-presets.js';

/** The service's own routes, by ID. */
export const SERVICE_ROUTE_ACCESS = {
  'projects.current': {
    method: 'GET',
    path: '/api/v1/projects/current',
    presets: ['tracing', 'read', 'read_write', 'setup'],
  },
  'otlp.traces': {
    method: 'POST',
    path: '/api/v1/otlp/v1/traces',
    presets: ['tracing', 'read_write', 'setup'],
  },
  'otlp.logs': { method: 'POST', path: '/api/v1/otlp/v1/logs', presets: ['tracing', 'read_write', 'setup'] },
  'traces.receipt': {
    method: 'GET',
    path: '/api/v1/traces/{otelTraceId}/receipt',
    presets: ['tracing', 'read', 'read_write', 'setup'],
  },
  openapi: {
    method: 'GET',
    path: '/api/v1/openapi.json',
    presets: ['tracing', 'read', 'read_write', 'setup'],
  },
} as const satisfies Readonly<Record<string, RouteAccess>>;

/** A route of {@link SERVICE_ROUTE_ACCESS}. */
export type ServiceRouteId = keyof typeof SERVICE_ROUTE_ACCESS;
