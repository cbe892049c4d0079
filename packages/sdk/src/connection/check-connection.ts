/**
 * The connection check: `GET /api/v1/projects/current`. It sends no telemetry.
 * @module
 */
import { SvcConnectionError } from '../errors/svc-connection-error.js';
import { displayOrigin, getServiceJson, ServiceRequestError } from '../http/service-request.js';
import type { ServiceEndpoint } from '../options/svc-options.js';
import type { ProjectConnection } from './project-connection.js';

/** The route of the project check. */
const PROJECT_PATH = '/api/v1/projects/current';

/** Largest project-check body read (64 KiB); a longer one is an invalid response. */
const MAX_PROJECT_BODY_BYTES = 64 * 1024;

/** How to fix a rejected key, shared by the 401 and 403 messages. */
const KEY_ADVICE =
  'Use a current key of this project whose preset allows the project check (Tracing, Read, or Read ' +
  'and write), and set baseUrl to the service origin only, without an API path.';

function toConnection(json: unknown): ProjectConnection | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const { id, name, organizationId, slug } = json as Record<string, unknown>;
  if (
    typeof id !== 'string' ||
    typeof name !== 'string' ||
    typeof organizationId !== 'string' ||
    typeof slug !== 'string'
  ) {
    return undefined;
  }
  return { id, name, organizationId, slug };
}

function statusError(origin: string, status: number): SvcConnectionError {
  if (status === 401) {
    return new SvcConnectionError(
      `The service at ${origin} rejected the API key (HTTP 401): the key is wrong, revoked, or not a key of this project. ${KEY_ADVICE}`,
      { status },
    );
  }
  if (status === 403) {
    return new SvcConnectionError(
      `The service at ${origin} refused the API key (HTTP 403): its preset does not allow this route. ${KEY_ADVICE}`,
      { status },
    );
  }
  if (status >= 300 && status < 400) {
    return new SvcConnectionError(
      `The service at ${origin} answered the connection check with a redirect (HTTP ${status}), which is not followed; set baseUrl to the service origin itself.`,
      { status },
    );
  }
  return new SvcConnectionError(
    `The service at ${origin} answered the connection check with HTTP ${status}.`,
    {
      status,
    },
  );
}

/**
 * Checks that the service at `endpoint.baseUrl` accepts `endpoint.apiKey`, and returns the
 * project the key belongs to. It sends no telemetry.
 *
 * @throws {@link SvcConnectionError} when the key is rejected (with `status` 401 or 403), another
 *   status answers, no answer comes within `endpoint.timeoutMillis` (no `status`), or the response
 *   is invalid. Messages never contain the key or the response body.
 */
export async function checkConnection(endpoint: ServiceEndpoint): Promise<ProjectConnection> {
  const origin = displayOrigin(endpoint.baseUrl);
  let response: Awaited<ReturnType<typeof getServiceJson>>;
  try {
    response = await getServiceJson({
      endpoint,
      path: PROJECT_PATH,
      timeoutMillis: endpoint.timeoutMillis,
      maxBodyBytes: MAX_PROJECT_BODY_BYTES,
    });
  } catch (error) {
    if (error instanceof ServiceRequestError && error.failure === 'timeout') {
      throw new SvcConnectionError(
        `The connection check timed out: the service at ${origin} did not answer within ${endpoint.timeoutMillis} ms.`,
        { cause: error },
      );
    }
    const reason = error instanceof ServiceRequestError ? error.reason : 'network error';
    throw new SvcConnectionError(
      `Could not connect to the service at ${origin} (${reason}); check baseUrl and the network.`,
      { cause: error },
    );
  }
  if (response.status !== 200) throw statusError(origin, response.status);
  const connection = toConnection(response.json);
  if (connection === undefined) {
    throw new SvcConnectionError(
      `The service at ${origin} sent an invalid response to the connection check: expected the project as JSON { id, name, organizationId, slug }. Check that baseUrl is the service origin.`,
    );
  }
  return connection;
}
