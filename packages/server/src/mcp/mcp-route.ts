/**
 * `/mcp`: the tool server over Streamable HTTP (the official SDK's web-standard transport), in
 * stateless mode with JSON answers: each POST carries its JSON-RPC messages and gets its answers,
 * with no session to keep, so any number of agents can call it and a restart loses nothing.
 * GET (a server-to-client event stream) and DELETE (ending a session) are answered 405.
 * @module
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { KeyRing } from '../auth/key-ring.js';
import type { GuardedEnv } from '../auth/route-guard.js';
import { createMcpServer } from './create-mcp-server.js';
import { jsonRpcError, mcpRefusal } from './mcp-access.js';
import type { McpSources } from './mcp-sources.js';

/** The path of the tool server. */
export const MCP_PATH = '/mcp';

/** Mounts the tool server at {@link MCP_PATH} on `app`. */
export function registerMcpRoute(app: OpenAPIHono<GuardedEnv>, keyRing: KeyRing, sources: McpSources): void {
  app.all(MCP_PATH, async (c) => {
    const request = c.req.raw;
    const origin = sources.publicOrigin ?? new URL(request.url).origin;
    const refusal = mcpRefusal(request, keyRing, origin);
    if (refusal !== undefined) return refusal;
    if (request.method !== 'POST') {
      return jsonRpcError(
        405,
        -32000,
        'Method not allowed: this server answers POST only (stateless, no event stream).',
        {
          allow: 'POST',
        },
      );
    }
    const server = createMcpServer(sources, { origin });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    // A client gone before its answer stops the work (a verify_trace wait, for one).
    const stop = () => void server.close();
    request.signal.addEventListener('abort', stop, { once: true });
    try {
      return await transport.handleRequest(request);
    } finally {
      request.signal.removeEventListener('abort', stop);
      await server.close();
    }
  });
}
