/**
 * Who may use the tool server: a Bearer key of the Read or Read-and-write preset (the project's
 * MCP Read key is a Read key). A missing or unknown key is answered 401, a key of another preset
 * (tracing, setup, machine) 403, each as a JSON-RPC error saying which key to use. Requests from
 * a web page of another origin (an `Origin` header that is not the server's) are refused (403),
 * against DNS rebinding.
 *
 * Not a row of the route table: `/mcp` answers JSON-RPC errors, not the REST error body.
 * @module
 */
import type { KeyPreset } from '../auth/key-presets.js';
import type { KeyRing } from '../auth/key-ring.js';

/** The presets the tool server accepts. */
export const MCP_PRESETS: readonly KeyPreset[] = ['read', 'read_write'];

const PRESET_NAMES: Readonly<Record<KeyPreset, string>> = {
  tracing: 'Tracing',
  read: 'Read',
  read_write: 'Read and write',
  setup: 'Setup',
  machine: 'Machine',
};

const USE_KEY =
  'use the MCP Read key (SVC_MCP_KEY in the env file `svc serve` writes), or a Read or Read-and-write key';

/** JSON-RPC error codes of refusals (implementation-defined server errors). */
export const MCP_UNAUTHORIZED = -32001;
export const MCP_FORBIDDEN = -32003;

/** A JSON-RPC error answer with HTTP `status`. */
export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

function presentedKey(header: string | undefined): string | undefined {
  return header === undefined ? undefined : /^Bearer[ ]+(\S+)\s*$/i.exec(header)?.[1];
}

/**
 * The refusal of a request to `/mcp`, or `undefined` when it may go on.
 *
 * @param selfOrigin - The server's own origin (a page of it may call the server).
 */
export function mcpRefusal(request: Request, keyRing: KeyRing, selfOrigin: string): Response | undefined {
  const origin = request.headers.get('origin');
  if (origin !== null && origin !== selfOrigin && origin !== new URL(request.url).origin) {
    return jsonRpcError(403, MCP_FORBIDDEN, 'Requests from web pages of other origins are refused.');
  }
  const presented = presentedKey(request.headers.get('authorization') ?? undefined);
  if (presented === undefined) {
    return jsonRpcError(401, MCP_UNAUTHORIZED, `Send a key as "Authorization: Bearer <key>": ${USE_KEY}.`, {
      'www-authenticate': 'Bearer',
    });
  }
  const key = keyRing.find(presented);
  if (key === undefined) {
    return jsonRpcError(401, MCP_UNAUTHORIZED, `The key is not a valid key of this project: ${USE_KEY}.`, {
      'www-authenticate': 'Bearer',
    });
  }
  if (!MCP_PRESETS.includes(key.preset)) {
    return jsonRpcError(
      403,
      MCP_FORBIDDEN,
      `A ${PRESET_NAMES[key.preset]} key cannot read traces over MCP: ${USE_KEY}.`,
    );
  }
  return undefined;
}
