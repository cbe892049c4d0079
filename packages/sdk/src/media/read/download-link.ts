/**
 * Asks the service for a file's download link with the project key: a trace's file through
 * `GET /api/v1/traces/{traceId}/blobs/{sha256}` (spec "HTTP routes", "Authentication" 4), a trace
 * snapshot's through `GET /api/v1/evals/trace-snapshots/{snapshotId}/blobs/{sha256}`, which
 * answers the same way for a Read and write key ("Authentication" 2).
 * @module
 */
import type { MediaFetchError } from '../../errors/media-fetch-error.js';
import { serviceErrorCode } from '../../http/service-error-code.js';
import { displayOrigin, getServiceJson, ServiceRequestError } from '../../http/service-request.js';
import type { ServiceEndpoint } from '../../options/svc-options.js';
import type { ResolvedFileSource } from './fetch-options.js';
import { mediaFetchFailure } from './media-fetch-failure.js';

/** Largest answer of the link route read; a longer one is malformed. */
const MAX_LINK_BODY_BYTES = 64 * 1024;

/** What the link route answers for a stored file. */
export interface DownloadLink {
  /** Signed, valid 5 minutes, fetched without the key. A credential: never shown in messages. */
  url: string;
  name: string | null;
  sha256: string;
  size: number;
  contentType: string;
}

/** Which file, and how to ask for it. */
export interface DownloadLinkRequest {
  source: ResolvedFileSource;
  sha256: string;
  spanId: string | undefined;
  signal: AbortSignal | undefined;
}

function parseLink(json: unknown, sha256: string): DownloadLink | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const body = json as Record<string, unknown>;
  const { url, name, size, contentType } = body;
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) return undefined;
  if (body.sha256 !== sha256) return undefined;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) return undefined;
  if (typeof contentType !== 'string') return undefined;
  if (name !== null && name !== undefined && typeof name !== 'string') return undefined;
  return { url, name: typeof name === 'string' ? name : null, sha256, size, contentType };
}

/** The route path of the link of `sha256` in `source`. */
function linkPath(source: ResolvedFileSource, sha256: string): string {
  return 'snapshotId' in source
    ? `/api/v1/evals/trace-snapshots/${source.snapshotId}/blobs/${sha256}`
    : `/api/v1/traces/${source.traceId}/blobs/${sha256}`;
}

/** The error for a link-route answer other than 200. */
function statusFailure(
  origin: string,
  source: ResolvedFileSource,
  status: number,
  json: unknown,
): MediaFetchError {
  const code = serviceErrorCode(json);
  const snapshot = 'snapshotId' in source;
  if (status === 401) {
    return mediaFetchFailure(
      'forbidden',
      `the service at ${origin} rejected the API key (HTTP 401): the key is wrong, revoked, or not a key of this project; use a ${snapshot ? 'Read and write' : 'Read or Read and write'} key of the project.`,
      status,
    );
  }
  if (status === 403) {
    return mediaFetchFailure(
      'forbidden',
      snapshot
        ? `the service at ${origin} refused the API key (HTTP 403): snapshot copies of files need a Read and write key; a Read key, Tracing key or setup credential cannot read them.`
        : `the service at ${origin} refused the API key (HTTP 403): reading recorded files needs a Read or Read and write key; a Tracing key or setup credential cannot read them.`,
      status,
    );
  }
  if (status === 404 && code === 'missing') {
    return mediaFetchFailure(
      'missing',
      `the ${snapshot ? 'trace snapshot' : 'trace'} lists this file but its bytes were never uploaded (or were erased) (HTTP 404); check the export report's uploadFallbacks of the application that recorded it.`,
      status,
    );
  }
  if (status === 404 && code === 'not_found') {
    return mediaFetchFailure(
      'not_found',
      snapshot
        ? 'the trace snapshot lists no file with this SHA-256, or no snapshot has this ID (HTTP 404); check snapshotId, sha256 and spanId.'
        : 'the trace holds no file with this SHA-256 (HTTP 404); check traceId, sha256 and spanId.',
      status,
    );
  }
  if (status === 404) {
    return mediaFetchFailure(
      'failed',
      `${origin} does not serve file downloads (HTTP 404 without the service's error body); check baseUrl.`,
      status,
    );
  }
  if (status === 503) {
    return mediaFetchFailure(
      'unavailable',
      `the service at ${origin} could not read its file storage (HTTP 503); try again later.`,
      status,
    );
  }
  if (status >= 300 && status < 400) {
    return mediaFetchFailure(
      'failed',
      `the service at ${origin} answered with a redirect (HTTP ${status}), which is not followed; set baseUrl to the service origin itself.`,
      status,
    );
  }
  return mediaFetchFailure(
    'failed',
    `the service at ${origin} answered the download-link request with HTTP ${status}.`,
    status,
  );
}

/**
 * Asks for the download link of `sha256` in the trace or trace snapshot of `request.source`.
 *
 * @throws {@link MediaFetchError} for every answer but a well-formed 200, and when no answer came.
 * @throws the signal's reason when `request.signal` aborts.
 */
export async function requestDownloadLink(
  endpoint: ServiceEndpoint,
  request: DownloadLinkRequest,
): Promise<DownloadLink> {
  const origin = displayOrigin(endpoint.baseUrl);
  let response: Awaited<ReturnType<typeof getServiceJson>>;
  try {
    response = await getServiceJson({
      endpoint,
      path: linkPath(request.source, request.sha256),
      query: request.spanId === undefined ? [] : [['spanId', request.spanId]],
      timeoutMillis: endpoint.timeoutMillis,
      maxBodyBytes: MAX_LINK_BODY_BYTES,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    });
  } catch (error) {
    if (!(error instanceof ServiceRequestError)) throw error;
    const why =
      error.failure === 'timeout'
        ? `did not answer within ${endpoint.timeoutMillis} ms`
        : `could not be reached (${error.reason})`;
    throw mediaFetchFailure(
      'failed',
      `the service at ${origin} ${why}; check baseUrl and the network.`,
      undefined,
      error,
    );
  }
  if (response.status !== 200) throw statusFailure(origin, request.source, response.status, response.json);
  const link = parseLink(response.json, request.sha256);
  if (link === undefined) {
    throw mediaFetchFailure(
      'failed',
      `the service at ${origin} answered the download-link request with a body that is not a download link; check baseUrl.`,
      200,
    );
  }
  return link;
}
