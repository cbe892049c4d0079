/**
 * Why a request to the tool server failed, in words for a person or a host: the service's own
 * JSON-RPC error message for a refused key (401/403), or what went wrong with the connection.
 * Never a key, never a response body beyond the service's JSON-RPC error message.
 * @module
 */
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

function serviceMessage(text: string): string | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  try {
    const body = JSON.parse(text.slice(start)) as { error?: { message?: unknown } };
    return typeof body.error?.message === 'string' ? body.error.message : undefined;
  } catch {
    return undefined;
  }
}

/** The reason of `error`, a failed request to `url`. */
export function mcpFailure(error: unknown, url: URL): string {
  if (error instanceof StreamableHTTPError) {
    const message = serviceMessage(error.message);
    const status = error.code === undefined ? '' : ` (HTTP ${error.code})`;
    if (error.code === 401 || error.code === 403) {
      return `the service refused the key${status}: ${message ?? 'use the MCP Read key (SVC_MCP_KEY)'}`;
    }
    if (error.code === 404) return `${url.href} is not an MCP endpoint (HTTP 404); check SVC_BASE_URL`;
    return `the service answered an error${status}${message === undefined ? '' : `: ${message}`}`;
  }
  // fetch's network failures: a TypeError whose cause says what went wrong.
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const why =
    typeof cause?.code === 'string'
      ? cause.code
      : typeof cause?.message === 'string'
        ? cause.message
        : undefined;
  if (why !== undefined) {
    return `cannot reach ${url.href} (${why}); is the service running (svc serve) at SVC_BASE_URL?`;
  }
  return `cannot use ${url.href}: ${error instanceof Error ? error.message : String(error)}`;
}
