/**
 * The read API's rows of the route table (`route-table.ts`). Browsing traces reads recorded
 * content, so only Read and Read-and-write keys: the spec's tracing key "does not give general
 * trace browsing", and setup and machine keys read nothing.
 * @module
 */
import type { KeyPreset } from '../auth/key-presets.js';

const READERS: readonly KeyPreset[] = ['read', 'read_write'];

/** Every route of the read API, by ID. */
export const READ_ROUTE_ACCESS = {
  'traces.search': { method: 'GET', path: '/api/v1/traces', presets: READERS },
  'traces.outline': { method: 'GET', path: '/api/v1/traces/{traceId}', presets: READERS },
  'traces.span': { method: 'GET', path: '/api/v1/traces/{traceId}/spans/{spanId}', presets: READERS },
} as const;
