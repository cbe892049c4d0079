/**
 * The media routes' rows of the route → presets table (`ROUTE_ACCESS`). Reserving and completing
 * an upload take the keys that may ingest; the download-link route reads recorded content, so
 * only Read and Read-and-write keys. The upload PUT and the download GET take no key at all: they
 * are authorized by the signature of their link (`auth: 'signed-link'`).
 * @module
 */
import type { KeyPreset } from '../auth/key-presets.js';
import { DOWNLOAD_PATH, UPLOAD_PATH } from './media-links.js';

const UPLOADERS: readonly KeyPreset[] = ['tracing', 'read_write', 'setup'];
const READERS: readonly KeyPreset[] = ['read', 'read_write'];

/** Every media route, by ID (the IDs fault injection uses). */
export const MEDIA_ROUTE_ACCESS = {
  'blobs.reserve': { method: 'POST', path: '/api/v1/otlp/blobs', presets: UPLOADERS },
  'blobs.upload': { method: 'PUT', path: UPLOAD_PATH, presets: [], auth: 'signed-link' },
  'blobs.complete': { method: 'POST', path: '/api/v1/otlp/blobs/complete', presets: UPLOADERS },
  'traces.blob': { method: 'GET', path: '/api/v1/traces/{traceId}/blobs/{sha256}', presets: READERS },
  'blobs.download': { method: 'GET', path: DOWNLOAD_PATH, presets: [], auth: 'signed-link' },
} as const;

/** The ID of a media route. */
export type MediaRouteId = keyof typeof MEDIA_ROUTE_ACCESS;
